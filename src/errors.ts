/**
 * Errors that end a command. Each says what went wrong and what to do, carries the process exit
 * code docs/commands.md documents, and whether trying again later could succeed.
 */

export const EXIT = {
  ok: 0,
  /** The run finished but some windows failed (or, for verify, something does not match). */
  incomplete: 1,
  /** Bad flags, dates or configuration. */
  usage: 2,
  /** The API rejected a key. */
  keyRejected: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The message of anything thrown, for a log line or a one-line error. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export abstract class PosSyncError extends Error {
  abstract readonly exitCode: ExitCode;
  /** True when the same action may succeed later without the user changing anything. */
  abstract readonly retryable: boolean;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A bad command line: unknown command or flag, malformed value. */
export class UsageError extends PosSyncError {
  readonly exitCode = EXIT.usage;
  readonly retryable = false;
}

/** Configuration that cannot work: a missing URL or key, a bad value in the environment. */
export class ConfigError extends PosSyncError {
  readonly exitCode = EXIT.usage;
  readonly retryable = false;
}
