/** The structured logger: pino, one JSON event per line, with secrets redacted by path. */
import { type DestinationStream, type Logger, pino } from "pino";
import { terminalSafeJson } from "./terminal-text.js";

export type { Logger } from "pino";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Fields that may hold a credential, wherever they appear in a logged object. */
const REDACTED_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "apiKey",
  "*.apiKey",
  "apiKeys",
  "*.apiKeys",
  "locations[*].apiKey",
  "*.locations[*].apiKey",
];

export function isLogLevel(text: string): text is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(text);
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where events go; standard error unless given, so that command output stays clean. */
  destination?: DestinationStream;
  base?: Record<string, unknown>;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? "info",
      base: options.base ?? null,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Events quote the API (a server's message, a name), and stderr is often a terminal.
      hooks: { streamWrite: terminalSafeJson },
    },
    options.destination ?? pino.destination({ dest: 2, sync: true }),
  );
}

/** A logger that drops everything, for library use and tests that do not look at logs. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
