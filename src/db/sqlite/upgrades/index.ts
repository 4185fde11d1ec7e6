/**
 * Upgrades of stored data that SQL migrations cannot do, run after them whenever a writer opens
 * the file: each runs once to its end, resuming after an interruption, and is then recorded in
 * `schema_upgrades` so that later opens skip it with one lookup.
 */
import type Database from "better-sqlite3";
import {
  ARCHIVE_RAW_COLUMNS,
  FILL_CLOCK_OFFSETS,
  FILL_CLOSED_HOURS,
  FILL_ROLLUPS,
  type UpgradeProgress,
} from "../../upgrade-progress.js";
import type { BeforeMigration } from "../migrate.js";
import { archiveRawColumns, needsRawArchiveUpgrade } from "./archive-raw-columns.js";
import { fillClockOffsets } from "./fill-clock-offsets.js";
import { fillClosedHours } from "./fill-closed-hours.js";
import { fillRollups } from "./fill-rollups.js";

const UPGRADES: readonly {
  name: string;
  run: (sqlite: Database.Database, onProgress: (progress: UpgradeProgress) => void) => void;
}[] = [
  { name: ARCHIVE_RAW_COLUMNS, run: archiveRawColumns },
  // Before the rollups: the hourly summaries group by the hours it fills.
  { name: FILL_CLOSED_HOURS, run: fillClosedHours },
  { name: FILL_ROLLUPS, run: fillRollups },
  { name: FILL_CLOCK_OFFSETS, run: fillClockOffsets },
];

/** The upgrades this file has not finished, by name. */
export function pendingUpgrades(sqlite: Database.Database): string[] {
  const finished = new Set(
    sqlite.prepare<[], string>("SELECT name FROM schema_upgrades").pluck().all(),
  );
  return UPGRADES.filter((upgrade) => !finished.has(upgrade.name)).map((upgrade) => upgrade.name);
}

/** Runs the upgrades not finished yet (only those named, when `only` is given), each to its
 * end, and records each. */
export function runUpgrades(
  sqlite: Database.Database,
  onProgress: (progress: UpgradeProgress) => void = () => {},
  only?: readonly string[],
): void {
  const pending = new Set(pendingUpgrades(sqlite));
  for (const upgrade of UPGRADES) {
    if (!pending.has(upgrade.name) || (only && !only.includes(upgrade.name))) continue;
    upgrade.run(sqlite, onProgress);
    sqlite
      .prepare(
        "INSERT INTO schema_upgrades (name, finished_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
      )
      .run(upgrade.name, new Date().toISOString());
  }
}

/** What must be done before a migration (by name) can run: the lean layout rebuilds the typed
 * tables, so the JSON an older file still keeps in their `raw` columns moves out first, and the
 * rebuild does not start while any is left. */
export const BEFORE_MIGRATIONS: Readonly<Record<string, BeforeMigration>> = {
  "0013_lean_layout": (sqlite, onProgress) => {
    runUpgrades(sqlite, onProgress, [ARCHIVE_RAW_COLUMNS]);
    if (needsRawArchiveUpgrade(sqlite))
      throw new Error(
        "some raw JSON of the typed tables could not be moved into the raw archive; nothing was changed: run pos-sync migrate again",
      );
  },
};
