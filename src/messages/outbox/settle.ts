/**
 * The settle stage: what becomes of a message once an attempt ends, as graphile-worker's
 * completeJob and failJob. Sent, it ends sent. A refusal that passes by itself (a server down,
 * busy or slow) waits and is tried again (backoff.ts); one that no retry can change (a recipient
 * the mail server does not know, a webhook answering 404) ends the message as failed, with the
 * server's answer: tried every hour for good, it would never go and the outbox would never
 * empty. No number of attempts ends a message: one owed is sent once its server is back.
 * Either way the lock is let go.
 */
import type { DeliveryStore } from "../../db/deliveries/deliveries.js";
import { messageOf } from "../../errors.js";
import { DeliveryError } from "../transports/transport.js";
import { retryDelayMs } from "./backoff.js";

export type AfterFailure =
  /** Refused for good: not tried again. */
  { ends: true; why: string } | { ends: false; why: string; retryAt: Date };

/** How an attempt ended. */
export type Outcome = { sent: true } | ({ sent: false } & AfterFailure);

/**
 * The `attempt`-th attempt (1 for the first) failed with `error` at `now`. Anything but a
 * DeliveryError (a record that cannot be read) waits like a server down: nothing owed is dropped
 * for a fault of pos-sync's own.
 */
export function afterFailure(
  error: unknown,
  attempt: number,
  now: Date,
  waitScale: number,
): AfterFailure {
  if (error instanceof DeliveryError && !error.retryable) return { ends: true, why: error.message };
  const retryAt = new Date(now.getTime() + retryDelayMs(attempt) * waitScale);
  return { ends: false, why: messageOf(error), retryAt };
}

/**
 * Records the outcome of `owner`'s attempt at message `id`, at `now`. A message sent is recorded
 * sent whoever holds it now; a failure is recorded only while `owner` still holds the message
 * (its lock expired and another process took it: that one's attempt decides).
 */
export async function settle(
  store: DeliveryStore,
  id: number,
  owner: string,
  outcome: Outcome,
  now: Date,
): Promise<void> {
  if (outcome.sent) await store.sent(id, now);
  else if (outcome.ends) await store.failedForGood(id, owner, now, outcome.why);
  else await store.retryLater(id, owner, outcome.retryAt, outcome.why);
}
