/** What the commands that read configuration share: flags, config, logger, database, signals. */
import { statSync } from "node:fs";
import type { WriteStream } from "node:tty";
import { type Config, databaseFlag, loadConfig, type RawSettings } from "../config/config.js";
import { databaseFile, databaseFor } from "../db/choose.js";
import type { Reader } from "../db/reads/reader.js";
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
  const file = databaseFile(config);
  if (file !== undefined && isDirectory(file)) {
    throw new ConfigError(
      `${file} is a directory: give --db (or POS_DB_PATH) the path of a database file`,
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

/** For status, verify and the other commands that only read: either database, which must
 * exist at this version's schema, opened for reading only, never created nor migrated. */
export async function openReadableDestination(config: Config): Promise<Reader> {
  return (await databaseFor(config)).openReader(config);
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
