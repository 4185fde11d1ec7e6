/**
 * A database file opened for a command that only reads: it must already be a pos-sync database,
 * is opened read-only (so a directory this user may not write to is fine), and is never created
 * nor migrated. A schema older than this version's is refused rather than half read: the queries
 * would fail on the columns it lacks.
 */
import { existsSync } from "node:fs";
import { ConfigError } from "../../errors.js";
import { migrationState } from "./migration-state.js";
import { type Db, openDatabase } from "./open.js";
import { pendingUpgrades } from "./upgrades/index.js";

export function openDatabaseForReading(path: string): Db {
  const notThere = `no pos-sync database at ${path}: check --db or POS_DB_PATH, or create one with pos-sync sync`;
  if (path === ":memory:" || !existsSync(path)) throw new ConfigError(notThere);
  const db = openDatabase(path, { readonly: true });
  try {
    const state = migrationState(db);
    if (!state.hasSchema) throw new ConfigError(notThere);
    if (state.pending > 0) {
      throw new ConfigError(
        `the database ${path} lacks ${state.pending} schema migration(s) of this pos-sync version: ` +
          "run pos-sync migrate (as a user that may write it) first",
      );
    }
    if (pendingUpgrades(db.sqlite).length > 0) {
      throw new ConfigError(
        `the upgrade of the database ${path} to this version's layout is not finished: ` +
          "run pos-sync migrate (as a user that may write it) to finish it",
      );
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
