/**
 * The claim stage: a due message is taken for sending by one process, which locks it (locked_at,
 * locked_by) and counts the attempt in one statement, as graphile-worker's getJob does; the lock
 * is the message's own, apart from when it is due (next_attempt_at). A lock expires: a process
 * that died mid-send holds its message until LOCK_MS after it took it, and another then sends it,
 * with the same Message-ID or Idempotency-Key.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { DeliveryStore } from "../../db/deliveries/deliveries.js";
import { DEFAULT_DELIVERY_TIMEOUT_MS, LONGEST_DELIVERY_MS } from "../transports/transport.js";

/** How long a lock holds: past the longest one sending may last (an e-mail's last resort bound,
 * and a few steps' timeouts more), so that no other process sends a message still being sent. */
export const LOCK_MS = LONGEST_DELIVERY_MS + 4 * DEFAULT_DELIVERY_TIMEOUT_MS;

/** Locks taken before this instant have expired at `now`; one taken then or later holds. */
export function lockExpiredBefore(now: Date): Date {
  return new Date(now.getTime() - LOCK_MS);
}

let processOwner: string | undefined;

/** This process as a lock names it: its host and process id, to be found by a person, and a
 * random part, so that a process id used again is another owner. */
export function outboxOwner(): string {
  processOwner ??= `${hostname()} ${process.pid} ${randomBytes(4).toString("hex")}`;
  return processOwner;
}

/** Takes the message for `owner` at `now`: the attempt's number (1 for the first), or undefined
 * when it is not to be sent now (another process holds it or sent it, it ended, or it is not
 * due). */
export function claim(
  store: DeliveryStore,
  id: number,
  owner: string,
  now: Date,
): Promise<number | undefined> {
  return store.claim(id, owner, now, lockExpiredBefore(now));
}
