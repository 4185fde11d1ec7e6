/**
 * What became of a day's report for one recipient, after `report --send` recorded it and ran the
 * outbox: judged per location from every message of that day recorded for the recipient (the
 * daemon's, an earlier run's, this run's), as the coverage that decides what is owed judges it
 * (morning-report/report-due.ts), so that the command says "already sent" exactly when nothing
 * was owed.
 */
import type { RecordedDelivery } from "../../db/deliveries/deliveries.js";
import { locationsOfKey } from "../message-keys.js";
import { type Recipient, sameRecipient } from "../recipients.js";

export type SendOutcome =
  /** Sent by this run. */
  | { kind: "sent" }
  /** Every location was sent before, the latest at `at`: nothing new. */
  | { kind: "already sent"; at: string }
  /** Not delivered yet: it waits in the outbox, tried next from `nextAttemptAt`. */
  | { kind: "waiting"; why: string | null; nextAttemptAt: string }
  /** Refused for good, or its recipient left the settings, at `at`: it is not tried again. */
  | { kind: "failed" | "retired"; why: string | null; at: string }
  /** Nothing recorded: no message of the day covers a location for this recipient. */
  | { kind: "not recorded" };

/** The outcomes by how much they need the user, the worst first: a recipient's is its worst
 * location's. */
const WORST_FIRST: readonly SendOutcome["kind"][] = [
  "not recorded",
  "failed",
  "retired",
  "waiting",
  "sent",
  "already sent",
];

/** The outcome of one location: a message that went beats one that waits, which beats one that
 * ended unsent. */
function locationOutcome(
  messages: readonly RecordedDelivery[],
  sentNow: ReadonlySet<number>,
): SendOutcome {
  const before = messages.filter((m) => m.status === "sent" && !sentNow.has(m.id));
  if (before.length > 0)
    return { kind: "already sent", at: before.map((m) => m.sentAt ?? "").sort()[0] as string };
  if (messages.some((m) => sentNow.has(m.id))) return { kind: "sent" };
  const waiting = messages.find((m) => m.status === "waiting");
  if (waiting)
    return { kind: "waiting", why: waiting.lastError, nextAttemptAt: waiting.nextAttemptAt };
  const ended = messages.at(-1);
  if (ended?.status === "failed" || ended?.status === "retired")
    return { kind: ended.status, why: ended.lastError, at: ended.nextAttemptAt };
  return { kind: "not recorded" };
}

/**
 * The recipient's outcome for the report of these locations, from the day's recorded messages
 * (`recorded`, oldest first) and the ids this run's outbox pass sent (`sentNow`).
 */
export function sendOutcome(
  recipient: Recipient,
  locationIds: readonly string[],
  recorded: readonly RecordedDelivery[],
  sentNow: ReadonlySet<number>,
): SendOutcome {
  const own = recorded.filter((m) => sameRecipient(recipient, m));
  const outcomes = locationIds.map((id) =>
    locationOutcome(
      own.filter((m) => {
        const covered = locationsOfKey(m.key);
        return covered === "all" || covered.includes(id);
      }),
      sentNow,
    ),
  );
  const rank = (o: SendOutcome) => WORST_FIRST.indexOf(o.kind);
  const worst = outcomes.reduce<SendOutcome>(
    (a, b) => (rank(b) < rank(a) ? b : a),
    outcomes[0] ?? { kind: "not recorded" },
  );
  if (worst.kind !== "already sent") return worst;
  // Sent in parts (a location that joined another clock's report): sent once the last part was.
  const at = outcomes.map((o) => (o.kind === "already sent" ? o.at : "")).sort();
  return { kind: "already sent", at: at.at(-1) as string };
}

/** Whether the report reached the recipient, now or before: nothing more is owed. */
export function delivered(outcome: SendOutcome): boolean {
  return outcome.kind === "sent" || outcome.kind === "already sent";
}
