/** Which errors stop more than the piece of work that met them. */

import { ApiKeyRejectedError } from "../api/errors.js";
import { DatabaseError } from "../db/errors.js";
import { messageOf } from "../errors.js";

/**
 * Rethrows what must stop the location (a rejected key) or the run (a failing database, which
 * the destination reports as a DatabaseError); returns the message of anything else, which
 * fails only the work at hand.
 */
export function escalateOrDescribe(error: unknown): string {
  if (error instanceof ApiKeyRejectedError || error instanceof DatabaseError) throw error;
  return messageOf(error);
}
