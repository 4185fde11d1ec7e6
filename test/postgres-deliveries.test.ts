/**
 * Two workers sharing a PostgreSQL database owe the same messages at the same moment: each is
 * recorded once, sent once to each recipient (a real SMTP server and a webhook receiver), and an
 * alert opens and closes once. A refusal for good ends a message, and one whose recipient left the
 * settings is retired, and a lock left by a process that died expires, as on SQLite
 * (outbox.test.ts).
 */
import { describe, expect, it } from "vitest";
import type { Config } from "../src/config/config.js";
import { AlertStore } from "../src/db/deliveries/alerts.js";
import { DeliveryStore, type NewDelivery } from "../src/db/deliveries/deliveries.js";
import { lending } from "../src/db/pg/connect.js";
import { openPostgres } from "../src/db/pg/open.js";
import { pgSession } from "../src/db/pg/reader.js";
import { internalSchemaOf } from "../src/db/pg/schemas.js";
import { silentLogger } from "../src/log.js";
import { deliverWaiting } from "../src/messages/outbox/outbox.js";
import { recipientsOf } from "../src/messages/recipients.js";
import { startMailServer } from "./helpers/mail-server.js";
import { lockLeftByDeadProcess, refusedForGood, retiredWhenUnset } from "./helpers/outbox.js";
import { usePostgres } from "./helpers/postgres.js";
import { startWebhookReceiver } from "./helpers/webhook-receiver.js";

const pg = usePostgres();

/** A worker's own pool on the shared schema. */
async function worker(target: ReturnType<typeof pg.target>) {
  const { pool } = await openPostgres(target, 2);
  const session = pgSession(lending(pool, target, (error) => error));
  return {
    session,
    deliveries: new DeliveryStore(session),
    alerts: new AlertStore(session),
    close: () => pool.end(),
  };
}

describe("messages shared by PostgreSQL workers", () => {
  it("records, sends and alerts once when two workers do it at the same moment", async () => {
    const target = pg.target();
    const [a, b] = [await worker(target), await worker(target)];
    const mail = await startMailServer();
    const hook = await startWebhookReceiver();
    try {
      const report: Config["messages"] = {
        mail: {
          smtpUrl: mail.url,
          from: "reports@example.com",
          to: ["manager@example.com", "owner@example.com"],
        },
        webhookUrl: hook.url,
        atMinutes: 420,
      };
      const owed: NewDelivery[] = recipientsOf(report).map((r) => ({
        kind: "morning report",
        key: "2026-11-28 Europe/Paris",
        channel: r.channel,
        recipient: r.recipient,
        subject: "Morning report, Saturday 28 November 2026: no exceptions",
        body: JSON.stringify(
          r.channel === "e-mail"
            ? { text: "the report", html: "<p>the report</p>" }
            : { text: "x" },
        ),
      }));
      const now = new Date();
      const recorded = await Promise.all([
        a.deliveries.record(owed, now),
        b.deliveries.record(owed, now),
      ]);
      expect(recorded[0] + recorded[1]).toBe(3);

      const options = { channels: report, logger: silentLogger(), waitScale: 1 };
      const sent = await Promise.all([
        deliverWaiting(a.deliveries, options),
        deliverWaiting(b.deliveries, options),
      ]);
      expect(sent[0].sent + sent[1].sent).toBe(3);
      expect(sent[0].failed + sent[1].failed).toBe(0);
      expect(mail.envelopes.map((e) => e.to[0]).sort()).toEqual([
        "manager@example.com",
        "owner@example.com",
      ]);
      expect(hook.received).toHaveLength(1);
      // The same on every attempt of the message: a receiver may tell a second sending.
      expect(hook.received[0]?.headers["idempotency-key"]).toMatch(/^[0-9a-f]{32}$/);
      expect(
        await pg.query(
          `SELECT status, attempts FROM ${internalSchemaOf(target.schema)}.deliveries ORDER BY id`,
        ),
      ).toEqual([
        { status: "sent", attempts: "1" },
        { status: "sent", attempts: "1" },
        { status: "sent", attempts: "1" },
      ]);

      const opened = await Promise.all([
        a.alerts.open("sync failing", "", "3 run(s) in a row did not complete", now),
        b.alerts.open("sync failing", "", "3 run(s) in a row did not complete", now),
      ]);
      expect(opened.filter((alert) => alert !== undefined)).toHaveLength(1);
      const id = (opened[0] ?? opened[1])?.id ?? -1;
      const closed = await Promise.all([
        a.alerts.close(id, "the last run completed", now),
        b.alerts.close(id, "the last run completed", now),
      ]);
      expect(closed.filter((alert) => alert !== undefined)).toHaveLength(1);
      // Closed, the same state may open again, as a new alert.
      expect(await a.alerts.open("sync failing", "", "again", now)).toMatchObject({
        kind: "sync failing",
      });
      expect(
        await pg.query(
          `SELECT id FROM ${internalSchemaOf(target.schema)}.alerts WHERE closed_at IS NULL`,
        ),
      ).toHaveLength(1);
    } finally {
      await mail.close();
      await hook.close();
      await a.close();
      await b.close();
    }
  });

  it("ends a message refused for good (550, 404) as failed after one attempt, with the server's answer, and sends the rest", async () => {
    const w = await worker(pg.target());
    try {
      await refusedForGood(w.session);
    } finally {
      await w.close();
    }
  });

  it("retires what waits for a recipient no longer in the settings at the next pass, saying why", async () => {
    const w = await worker(pg.target());
    try {
      await retiredWhenUnset(w.session);
    } finally {
      await w.close();
    }
  });
});

describe("the outbox's lock on PostgreSQL", () => {
  it("sends a message a process took and died with once its lock expired, and once", async () => {
    const w = await worker(pg.target());
    try {
      await lockLeftByDeadProcess(w.session);
    } finally {
      await w.close();
    }
  });
});
