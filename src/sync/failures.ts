/** Which errors stop more than the piece of work that met them. */

import { ApiKeyRejectedError } from "../api/errors.js";
import { DatabaseError, databaseError, isStorageFailure } from "../db/errors.js";
import { messageOf } from "../errors.js";
import type { SyncContext } from "./context.js";

/**
 * Rethrows what must stop the location (a rejected key) or the run (a failing database), as
 * typed errors; returns the message of anything else, which fails only the work at hand.
 */
export function escalateOrDescribe(context: SyncContext, error: unknown): string {
  if (error instanceof ApiKeyRejectedError || error instanceof DatabaseError) throw error;
  if (isStorageFailure(error)) throw databaseError(error, context.db.path, "write to the database");
  return messageOf(error);
}
