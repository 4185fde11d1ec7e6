/**
 * How a long upgrade shows (the schema migrations and data upgrades of either database): on a
 * terminal, one line redrawn in place with its percentage; elsewhere, one line when a part is
 * done. Upgrades run
 * synchronously, so the line is drawn from the progress callback itself, at most every 200 ms.
 */
import {
  ARCHIVE_RAW_COLUMNS,
  FILL_CLOCK_OFFSETS,
  FILL_CLOSED_HOURS,
  FILL_ROLLUPS,
  SCHEMA_MIGRATIONS,
  type UpgradeProgress,
} from "../db/upgrade-progress.js";
import { number } from "./text.js";

const REDRAW_MS = 200;

/** What an upgrade is doing and has done, in words. */
function describe(progress: UpgradeProgress): { doing: string; done: string } {
  const items = number.format(progress.items);
  switch (progress.upgrade) {
    case SCHEMA_MIGRATIONS:
      return {
        doing: `applying schema migrations${progress.part ? ` (${progress.part})` : ""}`,
        done: `applied ${items} schema migration${progress.items === 1 ? "" : "s"}${progress.part ? ` (${progress.part})` : ""}`,
      };
    case ARCHIVE_RAW_COLUMNS:
      return {
        doing: `moving the raw JSON of ${progress.part} into the archive`,
        done: `moved the raw JSON of ${progress.part} into the archive (${items} rows)`,
      };
    case FILL_CLOSED_HOURS:
      return {
        doing: `stamping ${items} orders with their closing hour`,
        done: `stamped ${items} orders with their closing hour`,
      };
    case FILL_CLOCK_OFFSETS:
      return {
        doing: `giving ${items} ${progress.part} their location's clock`,
        done: `gave ${items} ${progress.part} their location's clock`,
      };
    case FILL_ROLLUPS:
      return {
        doing: `summing ${items} location days into the daily summary tables`,
        done: `summed ${items} location days into the daily summary tables`,
      };
    default:
      return { doing: `upgrading ${progress.part}`, done: `upgraded ${progress.part}` };
  }
}

export function upgradeProgressWriter(
  out: NodeJS.WritableStream,
  interactive: boolean,
  now: () => number = Date.now,
): (progress: UpgradeProgress) => void {
  let drawnAt = 0;
  return (progress) => {
    const finished = progress.done >= 1;
    const words = describe(progress);
    if (!interactive) {
      if (finished) out.write(`${words.done}\n`);
      return;
    }
    if (!finished && now() - drawnAt < REDRAW_MS) return;
    drawnAt = now();
    out.write(
      finished
        ? `\r\x1b[K${words.done}\n`
        : `\r\x1b[K${words.doing}: ${Math.floor(progress.done * 100)} %`,
    );
  };
}
