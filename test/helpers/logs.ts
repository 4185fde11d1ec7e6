/** A pino logger whose lines a test can read back. */
import { Writable } from "node:stream";
import { createLogger, type Logger, type LogLevel } from "../../src/log.js";

export interface CapturedLogger {
  logger: Logger;
  lines: string[];
  text(): string;
}

export function captureLogs(level: LogLevel = "debug"): CapturedLogger {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString()
          .split("\n")
          .filter((line) => line !== ""),
      );
      done();
    },
  });
  return { logger: createLogger({ level, destination }), lines, text: () => lines.join("\n") };
}
