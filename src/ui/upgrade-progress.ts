/**
 * How a long upgrade of stored data shows (db/upgrades/): on a terminal, one line per table
 * redrawn in place with its percentage; elsewhere, one line when a table is done. Upgrades run
 * synchronously, so the line is drawn from the progress callback itself, at most every 200 ms.
 */
import type { UpgradeProgress } from "../db/upgrades/index.js";
import { number } from "./text.js";

const REDRAW_MS = 200;

export function upgradeProgressWriter(
  out: NodeJS.WritableStream,
  interactive: boolean,
  now: () => number = Date.now,
): (progress: UpgradeProgress) => void {
  let drawnAt = 0;
  return (progress) => {
    const finished = progress.done >= 1;
    const rows = `${number.format(progress.rows)} rows`;
    if (!interactive) {
      if (finished)
        out.write(`moved the raw JSON of ${progress.table} into the archive (${rows})\n`);
      return;
    }
    if (!finished && now() - drawnAt < REDRAW_MS) return;
    drawnAt = now();
    const percent = `${Math.floor(progress.done * 100)} %`;
    out.write(
      finished
        ? `\r\x1b[Kmoved the raw JSON of ${progress.table} into the archive (${rows})\n`
        : `\r\x1b[Kmoving the raw JSON of ${progress.table} into the archive: ${percent} of ${rows}`,
    );
  };
}
