/**
 * The outbox's pass, the one way a message leaves: messages recorded (record.ts) wait here until
 * a pass sends them, whoever recorded them (the daemon's alerts and reports, `report --send`) and
 * whoever runs the pass (the daemon every minute, `report --send` once). Each due message goes
 * through the stages in turn: claim (claim.ts: one process locks it), send (transports/send.ts:
 * SMTP or a webhook), settle (settle.ts: sent, tried again later, or failed for good). Messages
 * for a recipient no longer in the settings are retired first (retire.ts), so that the outbox
 * empties: status shows them.
 */

import type { Channels } from "../../config/channel-addresses.js";
import type { DeliveryStore, WaitingDelivery } from "../../db/deliveries/deliveries.js";
import { messageOf } from "../../errors.js";
import type { Logger } from "../../log.js";
import { send } from "../transports/send.js";
import { DeliveryError } from "../transports/transport.js";
import { claim, lockExpiredBefore, outboxOwner } from "./claim.js";
import { retireUnconfigured, whyRetired } from "./retire.js";
import { afterFailure, type Outcome, settle } from "./settle.js";

export interface OutboxOptions {
  channels: Channels;
  logger: Logger;
  /** The waits between attempts, as a share of the real ones (clock/waits.ts). */
  waitScale: number;
  now?: () => Date;
  /** Who takes the messages (claim.ts); this process by default. */
  owner?: string;
  /** Told of each attempt. */
  onAttempt?: (delivery: WaitingDelivery, outcome: "sent" | "failed") => void;
  signal?: AbortSignal;
  /** Every due message, page after page, rather than one page: `report --send` runs once, not
   * every minute, so its hundred and fifty recipients all go in that one run. */
  drain?: boolean;
  /** Leave the messages of a recipient the settings do not name as they are, rather than retire
   * them: `report --send`'s settings may be a cron line's, narrower than the daemon's. */
  leaveUnconfigured?: boolean;
}

/** The most messages one pass sends: a long outbox drains over a few passes, not in one burst. */
const PASS_LIMIT = 50;

/** Sends what is due (PASS_LIMIT of it, or all of it with `drain`), after retiring what no
 * setting names any more; answers how many were sent, how many attempts failed and how many
 * messages were retired. Stops early when `signal` aborts (the daemon stopping), and leaves a
 * channel's other messages for the next pass once one failed in a way that may pass (its server
 * down): one wait per pass, not one per message. */
export async function deliverWaiting(
  store: DeliveryStore,
  options: OutboxOptions,
): Promise<{ sent: number; failed: number; retired: number }> {
  const now = options.now ?? (() => new Date());
  const retired = options.leaveUnconfigured
    ? 0
    : await retireUnconfigured(store, options.channels, options.logger, now());
  const down = new Set<string>();
  const tally = { sent: 0, failed: 0 };
  let after = 0;
  for (;;) {
    const at = now();
    const due = await store.due(at, lockExpiredBefore(at), PASS_LIMIT, after);
    for (const delivery of due) {
      if (options.signal?.aborted) break;
      after = delivery.id;
      if (down.has(delivery.channel)) continue;
      if (options.leaveUnconfigured && whyRetired(delivery, options.channels) !== undefined)
        continue;
      await deliverOne(store, delivery, options, down, tally);
    }
    if (!options.drain || due.length < PASS_LIMIT || options.signal?.aborted) break;
  }
  return { ...tally, retired };
}

/** One message through claim, send and settle. A channel found down joins `down`. */
async function deliverOne(
  store: DeliveryStore,
  delivery: WaitingDelivery,
  options: OutboxOptions,
  down: Set<string>,
  tally: { sent: number; failed: number },
): Promise<void> {
  const now = options.now ?? (() => new Date());
  const owner = options.owner ?? outboxOwner();
  const attempt = await claim(store, delivery.id, owner, now());
  if (attempt === undefined) return;
  const about = {
    kind: delivery.kind,
    key: delivery.key,
    channel: delivery.channel,
    recipient: delivery.recipient,
    attempt,
  };
  let outcome: Outcome;
  try {
    await send(delivery, options.channels);
    outcome = { sent: true };
  } catch (error) {
    outcome = { sent: false, ...afterFailure(error, attempt, now(), options.waitScale) };
    // A record that cannot be read says nothing of the channel's server.
    if (!outcome.ends && error instanceof DeliveryError) down.add(delivery.channel);
  }
  tally[outcome.sent ? "sent" : "failed"]++;
  options.onAttempt?.(delivery, outcome.sent ? "sent" : "failed");
  try {
    await settle(store, delivery.id, owner, outcome, now());
  } catch (error) {
    if (!outcome.sent) throw error;
    // Sent, not recorded: it is taken again once its lock expires, and sent a second time (an
    // e-mail with the same Message-ID, a webhook with the same Idempotency-Key).
    options.logger.error(
      { ...about, error: messageOf(error) },
      `sent the ${delivery.kind} by ${delivery.channel}, but could not record it: it may be sent again`,
    );
    return;
  }
  if (outcome.sent) {
    options.logger.info(about, `sent the ${delivery.kind} by ${delivery.channel}`);
  } else if (outcome.ends) {
    options.logger.warn(
      { ...about, error: outcome.why },
      `could not send the ${delivery.kind} by ${delivery.channel}: refused for good, it is not tried again`,
    );
  } else {
    options.logger.warn(
      { ...about, retryAt: outcome.retryAt.toISOString(), error: outcome.why },
      `could not send the ${delivery.kind} by ${delivery.channel}; it waits in the outbox`,
    );
  }
}
