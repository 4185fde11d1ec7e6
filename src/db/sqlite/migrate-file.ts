/** `pos-sync migrate` on a SQLite file: creates or upgrades it, and says which it did. */
import { existsSync } from "node:fs";
import type { UpgradeProgress } from "../upgrade-progress.js";
import { migrationState } from "./migration-state.js";
import { openDatabase } from "./open.js";

/** Migrations the file lacks, read before anything changes it; undefined when there is no file. */
function pendingBefore(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const db = openDatabase(path, { readonly: true });
  try {
    return migrationState(db).pending;
  } finally {
    db.close();
  }
}

function outcome(path: string, pending: number | undefined, applied: number): string {
  if (pending === undefined) return `created the database ${path} (${applied} migrations applied)`;
  if (pending === 0) return `${path} is already up to date (${applied} migrations applied)`;
  return `upgraded ${path}: applied ${pending} migration${pending === 1 ? "" : "s"} (${applied} in all)`;
}

export function migrateFile(path: string, onProgress: (progress: UpgradeProgress) => void): string {
  const pending = pendingBefore(path);
  const db = openDatabase(path, { onUpgradeProgress: onProgress });
  try {
    return outcome(path, pending, migrationState(db).applied);
  } finally {
    db.close();
  }
}
