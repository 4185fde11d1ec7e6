/** What the commands that read configuration share: flags, config, logger, database, signals. */
import type { WriteStream } from "node:tty";
import { type Config, loadConfig, type RawSettings } from "../config.js";
import { type Db, openDatabase } from "../db/open.js";
import { createLogger, type Logger, type LogLevel } from "../log.js";
import type { CommandIo } from "./command.js";

export const CONFIG_FLAGS = {
  config: { type: "string" },
  db: { type: "string" },
} as const;

export const CONFIG_HELP = `  --config FILE            JSON settings (may list several locations); the environment and
                           flags win over it
  --db PATH                the database file (default POS_DB_PATH, else data/pos.sqlite)`;

export function commandConfig(
  values: { config?: string | undefined; db?: string | undefined },
  io: CommandIo,
  needsApi: boolean,
  flags: RawSettings = {},
): Config {
  return loadConfig({
    env: io.env,
    ...(values.config === undefined ? {} : { configFile: values.config }),
    flags: { ...flags, ...(values.db === undefined ? {} : { dbPath: values.db }) },
    needsApi,
  });
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

export function openConfiguredDatabase(config: Config): Db {
  return openDatabase(config.dbPath);
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
