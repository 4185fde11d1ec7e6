/** A database failure in words a user can act on: what both destinations throw. */
import { EXIT, PosSyncError } from "../errors.js";

export class DatabaseError extends PosSyncError {
  readonly exitCode = EXIT.incomplete;

  constructor(
    message: string,
    readonly code: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}
