/**
 * The record stage: a message owed to recipients is composed and written to the outbox, once per
 * recipient (the table's unique key), before anything is sent. Every message enters the pipeline
 * here: the daemon's alerts, and the morning report of the daemon and of `report --send`
 * (morning-report/record-report.ts).
 */
import type { DeliveryKind, DeliveryStore } from "../../db/deliveries/deliveries.js";
import { compose } from "../compose/compose.js";
import type { Message } from "../message.js";
import type { Recipient } from "../recipients.js";

export interface OwedMessage {
  kind: DeliveryKind;
  /** Which one (message-keys.ts): with the kind, what a recipient gets once. */
  key: string;
  message: Message;
  recipients: readonly Recipient[];
}

/** Records the message for each recipient, due at `now`; one recorded already (here or by
 * another process) is left as it is. Answers how many were recorded. */
export function recordMessage(store: DeliveryStore, owed: OwedMessage, now: Date): Promise<number> {
  return store.record(compose(owed.kind, owed.key, owed.message, owed.recipients), now);
}
