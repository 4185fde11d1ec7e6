/** What the commands that read configuration share: flags, config, logger, database, signals. */
import { existsSync, statSync } from "node:fs";
import type { WriteStream } from "node:tty";
import { type Config, databaseFlag, loadConfig, type RawSettings } from "../config/config.js";
import type { Reader } from "../db/reads/reader.js";
import { migrationState } from "../db/sqlite/migration-state.js";
import { type Db, openDatabase } from "../db/sqlite/open.js";
import { sqliteReader } from "../db/sqlite/reader.js";
import { pendingUpgrades, type UpgradeProgress } from "../db/sqlite/upgrades/index.js";
import { ConfigError } from "../errors.js";
import { createLogger, type Logger, type LogLevel } from "../log.js";
import type { CommandIo } from "./command.js";

export const CONFIG_FLAGS = {
  config: { type: "string" },
  db: { type: "string" },
} as const;

export const CONFIG_HELP = `  --config FILE            JSON settings (may list several locations); the environment and
                           flags win over it
  --db PATH|URL            the database: a SQLite file (default POS_DB_PATH, else
                           data/pos.sqlite) or postgres://… (default POS_DB_URL)`;

export function commandConfig(
  values: { config?: string | undefined; db?: string | undefined },
  io: CommandIo,
  needsApi: boolean,
  flags: RawSettings = {},
): Config {
  const config = loadConfig({
    env: io.env,
    ...(values.config === undefined ? {} : { configFile: values.config }),
    flags: { ...flags, ...(values.db === undefined ? {} : databaseFlag(values.db)) },
    needsApi,
  });
  // SQLite's own answer for a directory names an I/O error: say what is wrong instead.
  if (config.postgres === undefined && isDirectory(config.dbPath)) {
    throw new ConfigError(
      `${config.dbPath} is a directory: give --db (or POS_DB_PATH) the path of a database file`,
    );
  }
  return config;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** True when a person watches standard error: a progress display beats log lines there. */
export function isInteractive(io: CommandIo): boolean {
  return (io.stderr as WriteStream).isTTY === true;
}

/** On a terminal, logs say only what needs attention (the progress display tells the rest),
 * unless LOG_LEVEL asks for more. */
export function commandLogLevel(config: Config, io: CommandIo): LogLevel {
  return isInteractive(io) && io.env.LOG_LEVEL === undefined ? "warn" : config.logLevel;
}

/** Logs go to standard error. */
export function commandLogger(config: Config, io: CommandIo): Logger {
  return createLogger({ level: commandLogLevel(config, io) });
}

/** Opens the database for writing, migrating it first; a long upgrade of its stored data shows
 * through `onUpgradeProgress`. */
export function openConfiguredDatabase(
  config: Config,
  onUpgradeProgress?: (progress: UpgradeProgress) => void,
): Db {
  return openDatabase(config.dbPath, onUpgradeProgress ? { onUpgradeProgress } : {});
}

/** For status and verify: either destination, opened for reading only (see below). */
export async function openReadableDestination(config: Config): Promise<Reader> {
  if (config.postgres) {
    // Loaded only here: a SQLite command spares PostgreSQL's modules their start-up CPU.
    const { openPgReader } = await import("../db/pg/reader.js");
    return openPgReader(config.postgres);
  }
  return sqliteReader(openDatabaseForReading(config));
}

/**
 * For commands that only read: the file must already be a pos-sync database, is opened
 * read-only (so a directory this user may not write to is fine), and is never created nor
 * migrated. A schema older than this version's is refused rather than half read: the queries
 * would fail on the columns it lacks.
 */
export function openDatabaseForReading(config: Config): Db {
  const path = config.dbPath;
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

/**
 * The first SIGINT or SIGTERM asks the work to stop cleanly (the signal aborts); a second one
 * exits at once. SQLite's journal keeps the file consistent either way.
 */
export function stopOnSignals(stop: AbortController, logger: Logger): () => void {
  let received = 0;
  const handler = (signal: NodeJS.Signals) => {
    received++;
    if (received === 1) {
      logger.warn(
        { signal },
        "stopping: finishing the page in hand (send the signal again to exit at once)",
      );
      stop.abort();
    } else {
      process.exit(130);
    }
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
}
