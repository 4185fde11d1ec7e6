/**
 * The outbox on a real SQLite file, against a real SMTP server and webhook receiver: a refusal
 * for good ends a message as failed rather than rescheduling it for good, a message whose
 * recipient left the settings is retired rather than waiting for good, and status shows both
 * apart from what waits; a lock left by a process that died mid-send expires, and the messages of
 * a database an earlier version wrote start unlocked; `report --send` drains the whole outbox in
 * its one run and retires nobody's. (postgres-deliveries.test.ts runs
 * the first three on PostgreSQL.)
 */
import { describe, expect, it } from "vitest";
import { DeliveryStore } from "../src/db/deliveries/deliveries.js";
import type { DeliveryState } from "../src/db/reads/deliveries.js";
import { composeReader } from "../src/db/reads/reader.js";
import { ReadSession } from "../src/db/reads/session.js";
import { sqliteSession } from "../src/db/sqlite/reader.js";
import { silentLogger } from "../src/log.js";
import { claim, lockExpiredBefore } from "../src/messages/outbox/claim.js";
import { deliverWaiting } from "../src/messages/outbox/outbox.js";
import { messageLines } from "../src/ui/format-status.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { startMailServer } from "./helpers/mail-server.js";
import { createOlderDatabase, migrationsFrom } from "./helpers/older-schema.js";
import {
  KEPT,
  lockLeftByDeadProcess,
  owed,
  refusedForGood,
  retiredWhenUnset,
} from "./helpers/outbox.js";

const tempPath = useTempDir();

function withSession(test: (session: ReturnType<typeof sqliteSession>) => Promise<void>) {
  return async () => {
    const db = openTestDb(tempPath());
    try {
      await test(sqliteSession(db.sqlite));
    } finally {
      db.close();
    }
  };
}

describe("the outbox on SQLite", () => {
  it(
    "ends a message refused for good (550, 404) as failed after one attempt, with the server's answer, and sends the rest",
    withSession(refusedForGood),
  );

  it(
    "retires what waits for a recipient no longer in the settings at the next pass, saying why",
    withSession(retiredWhenUnset),
  );

  it(
    "sends a message a process took and died with once its lock expired, and once",
    withSession(lockLeftByDeadProcess),
  );

  it(
    "shows the messages that ended unsent for 7 days, then no more",
    withSession(async (session) => {
      const store = new DeliveryStore(session);
      const report = {
        mail: { smtpUrl: "smtp://127.0.0.1:25", from: "reports@example.com", to: [KEPT] },
        webhookUrl: undefined,
        atMinutes: 420,
      };
      await store.record(owed(report, "2026-11-28 of loc-a,loc-b"), new Date());
      const now = new Date();
      const [message] = await store.due(now, lockExpiredBefore(now), 10);
      if (!message) throw new Error("the message was not recorded");
      await claim(store, message.id, "test", now);
      await store.failedForGood(
        message.id,
        "test",
        new Date("2026-11-29T06:00:00Z"),
        "e-mail: refused",
      );
      const reader = composeReader(new ReadSession(session, "test"));
      const within = await reader.messages.deliveryState(new Date("2026-12-06T05:59:00Z"));
      expect(within.failed).toBe(1);
      expect(within.lastUndelivered).toMatchObject([
        { recipient: KEPT, reason: "e-mail: refused" },
      ]);
      const after = await reader.messages.deliveryState(new Date("2026-12-06T06:01:00Z"));
      expect(after.failed).toBe(0);
      expect(after.lastUndelivered).toEqual([]);
    }),
  );
});

describe("the outbox's lock on a database an earlier version wrote", () => {
  it("starts every message unlocked: one due is sent, one an earlier version took is sent when its claim ends", async () => {
    const path = tempPath();
    createOlderDatabase(path, migrationsFrom("0022_outbox_lock"));
    const now = new Date();
    const claimEnds = new Date(now.getTime() + 6 * 60_000);
    const older = openTestDb(path, { migrate: false });
    const insert = older.sqlite.prepare(
      `INSERT INTO deliveries (kind, key, channel, recipient, subject, body, status, attempts,
         next_attempt_at, created_at)
       VALUES ('alert', ?, 'e-mail', ?, 'pos-sync alert', ?, 'waiting', ?, ?, ?)`,
    );
    const body = JSON.stringify({ text: "the alert", html: "<p>the alert</p>" });
    insert.run("1 opened", KEPT, body, 0, now.toISOString(), now.toISOString());
    // Taken by the earlier version's claim, which moved its next attempt ahead.
    insert.run("2 opened", KEPT, body, 1, claimEnds.toISOString(), now.toISOString());
    older.close();

    const db = openTestDb(path);
    const mail = await startMailServer();
    try {
      expect(rows(db, "SELECT locked_at, locked_by FROM deliveries")).toEqual([
        { locked_at: null, locked_by: null },
        { locked_at: null, locked_by: null },
      ]);
      const store = new DeliveryStore(sqliteSession(db.sqlite));
      const report = {
        mail: { smtpUrl: mail.url, from: "reports@example.com", to: [KEPT] },
        webhookUrl: undefined,
        atMinutes: 420,
      };
      const passAt = (at: Date) =>
        deliverWaiting(store, {
          channels: report,
          logger: silentLogger(),
          waitScale: 1,
          now: () => at,
        });
      expect(await passAt(now)).toMatchObject({ sent: 1 });
      expect(await passAt(new Date(claimEnds.getTime() - 1_000))).toMatchObject({ sent: 0 });
      expect(await passAt(claimEnds)).toMatchObject({ sent: 1 });
      expect(mail.envelopes).toHaveLength(2);
      expect(rows(db, "SELECT key, status, attempts FROM deliveries ORDER BY id")).toEqual([
        { key: "1 opened", status: "sent", attempts: 1 },
        { key: "2 opened", status: "sent", attempts: 2 },
      ]);
    } finally {
      await mail.close();
      db.close();
    }
  });
});

describe("the outbox as report --send runs it", () => {
  it(
    "sends every page of the outbox in one run, and leaves what waits for a recipient it does not name as it is",
    withSession(async (session) => {
      const store = new DeliveryStore(session);
      const reader = composeReader(new ReadSession(session, "test"));
      const mail = await startMailServer();
      try {
        // More than one pass's worth, and one recipient only the daemon's settings name.
        const named = Array.from({ length: 51 }, (_, i) => `r${i}@example.com`);
        const report = {
          mail: { smtpUrl: mail.url, from: "reports@example.com", to: named },
          webhookUrl: undefined,
          atMinutes: 420,
        };
        const daemons = { ...report, mail: { ...report.mail, to: [...named, KEPT] } };
        await store.record(owed(daemons, "2026-11-28 of loc-a"), new Date());
        const pass = await deliverWaiting(store, {
          channels: report,
          logger: silentLogger(),
          waitScale: 1,
          drain: true,
          leaveUnconfigured: true,
        });
        expect(pass).toEqual({ sent: 51, failed: 0, retired: 0 });
        expect(mail.envelopes).toHaveLength(51);
        const state = await reader.messages.deliveryState();
        expect(state.waiting).toBe(1);
        expect(state.firstWaiting[0]).toMatchObject({ recipient: KEPT, attempts: 0 });
      } finally {
        await mail.close();
      }
    }),
  );
});

describe("status' lines for the messages", () => {
  const quiet: DeliveryState = {
    lastReport: null,
    waiting: 0,
    firstWaiting: [],
    failed: 0,
    retired: 0,
    lastUndelivered: [],
    openAlerts: [],
  };

  it("says nothing when nothing was sent, waits or ended unsent", () => {
    expect(messageLines(quiet)).toEqual([]);
  });

  it("lists the messages refused for good and retired apart from the outbox, each with its reason", () => {
    const lines = messageLines({
      ...quiet,
      failed: 1,
      retired: 1,
      lastUndelivered: [
        {
          kind: "morning report",
          key: "2026-11-28 of loc-a,loc-b",
          channel: "e-mail",
          recipient: "gone@example.com",
          status: "failed",
          attempts: 1,
          endedAt: "2026-11-29T06:00:00.000Z",
          reason:
            "e-mail: the mail server mail.example.com:587 refused the recipient gone@example.com (550 5.1.1 No such user here): check POS_REPORT_TO",
        },
        {
          kind: "alert",
          key: "12 opened",
          channel: "webhook",
          recipient: "https://hooks.example.com/…",
          status: "retired",
          attempts: 3,
          endedAt: "2026-11-29T05:50:00.000Z",
          reason: "the webhook address changed (POS_REPORT_WEBHOOK_URL)",
        },
      ],
    });
    expect(lines).toEqual([
      "Not delivered  2 messages in the last 7 days, not tried again: 1 refused for good, 1 retired",
      "  morning report 2026-11-28 (2 locations) by e-mail to gone@example.com: failed 2026-11-29 06:00 UTC after 1 attempt; e-mail: the mail server mail.example.com:587 refused the recipient gone@example.com (550 5.1.1 No such user here): check POS_REPORT_TO",
      "  alert 12 opened by webhook to https://hooks.example.com/…: retired 2026-11-29 05:50 UTC; the webhook address changed (POS_REPORT_WEBHOOK_URL)",
    ]);
    expect(lines.some((line) => line.startsWith("Outbox"))).toBe(false);
  });
});
