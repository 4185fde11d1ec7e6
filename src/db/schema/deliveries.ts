/**
 * What pos-sync sends people (the morning report, health alerts), recorded in the database so
 * that a message goes once per recipient whatever restarts or several workers do: a delivery is
 * the record that it is owed and the outbox entry until it is sent; an alert is a state of the
 * sync that opened and, later, closed.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const deliveries = sqliteTable(
  "deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** morning report, or alert. */
    kind: text("kind").notNull(),
    /** Which one: the report's day and its locations (`2026-11-28 of <id>,<id>`, never the
     * clock: messages/message-keys.ts), an alert's id and state (`12 opened`). */
    key: text("key").notNull(),
    /** e-mail or webhook. */
    channel: text("channel").notNull(),
    /** The e-mail address, or the webhook as shown without its credentials
     * (`https://hooks.example.com/…`). */
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    /** What is sent, as JSON: the e-mail's text and HTML, or the webhook's payload. Kept until
     * sent so that a retry sends the message as it was made. */
    body: text("body").notNull(),
    /** waiting (the outbox), sent, failed (refused for good) or retired (its recipient left
     * the settings). Free text: a new ending needs no migration. */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull(),
    /** When the outbox tries it next; once failed or retired, when it ended. */
    next_attempt_at: text("next_attempt_at").notNull(),
    /** When a process took it for sending, null when none holds it: the outbox's lock. A lock
     * older than the longest a sending may last is expired, so that a process that died
     * mid-send holds no message for good (messages/outbox/claim.ts). */
    locked_at: text("locked_at"),
    /** Which process holds it (host, process id and a random part), null when none does. */
    locked_by: text("locked_by"),
    /** Why the last attempt failed, in one line without credentials, or why it was retired. */
    last_error: text("last_error"),
    created_at: text("created_at").notNull(),
    sent_at: text("sent_at"),
  },
  (t) => [
    uniqueIndex("deliveries_once").on(t.kind, t.key, t.channel, t.recipient),
    index("deliveries_waiting").on(t.status, t.next_attempt_at),
  ],
);

export const alerts = sqliteTable(
  "alerts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** sync failing, key rejected, data stale, audit repairing. */
    kind: text("kind").notNull(),
    /** What it is about: a key's fingerprint, a location's id; empty for the sync as a whole. */
    subject: text("subject").notNull(),
    /** `kind subject` while the alert is open, null once closed: one open alert of a kind per
     * subject, which a second worker opening the same one at the same moment runs into. */
    open_key: text("open_key").unique("alerts_open_key"),
    /** What was found when it opened, in a line. */
    detail: text("detail").notNull(),
    opened_at: text("opened_at").notNull(),
    closed_at: text("closed_at"),
    /** What was found when it closed, in a line. */
    resolution: text("resolution"),
  },
  (t) => [index("alerts_opened").on(t.opened_at)],
);
