/**
 * `report --send` delivers as the daemon does, against a real SMTP server and webhook receiver on
 * 127.0.0.1: one e-mail per recipient, each recorded before it goes, with the daemon's Message-ID
 * and Idempotency-Key; a second `--send` of the day sends nothing new, nor does the daemon after
 * it (or it after the daemon); a server that defers leaves the message waiting in the outbox,
 * said so without a retry promised, and the next `--send` sends it once.
 */
import { copyFileSync } from "node:fs";
import type { AddressObject } from "mailparser";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import type { Config } from "../src/config/config.js";
import { DaemonMetrics } from "../src/daemon/metrics.js";
import { Notifier } from "../src/daemon/notifier.js";
import { AlertStore } from "../src/db/deliveries/alerts.js";
import { DeliveryStore } from "../src/db/deliveries/deliveries.js";
import { sqliteReader, sqliteSession } from "../src/db/sqlite/reader.js";
import { silentLogger } from "../src/log.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli } from "./helpers/cli.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { type MailServer, startMailServer } from "./helpers/mail-server.js";
import { useSimulator } from "./helpers/simulator.js";
import { simulatorConfig, simulatorNow, syncOnce } from "./helpers/sync.js";
import { until } from "./helpers/wait.js";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.js";

const tempPath = useTempDir();
// Two locations on one clock (UTC+01:00): one report a day, as in daemon-messages.test.ts.
const sim = useSimulator({ today: simulatorToday(), days: 10, seed: 31, locations: 2 });
const RECIPIENTS = ["accounts@example.com", "manager@example.com", "owner@example.com"];

/** A database synced once; each test sends from a copy of its own. */
let synced: string;
beforeAll(async () => {
  synced = tempPath();
  const db = openTestDb(synced);
  try {
    expect((await syncOnce(sim.current, db)).result.status).toBe("succeeded");
  } finally {
    db.close();
  }
}, 120_000);

function copyOfSynced(): string {
  const path = tempPath();
  copyFileSync(synced, path);
  return path;
}

/** Yesterday at the simulator's locations: the day the daemon's report is due for. */
const yesterday = () => addDays(sim.current.dataset.today, -1);

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((o) => o.value.map((v) => v.address ?? ""));
}

function sendEnv(dbPath: string, mail: MailServer, hook?: WebhookReceiver, to = RECIPIENTS) {
  return {
    POS_DB_PATH: dbPath,
    POS_REPORT_SMTP_URL: mail.url,
    POS_REPORT_FROM: "pos-sync <reports@example.com>",
    POS_REPORT_TO: to.join(", "),
    ...(hook ? { POS_REPORT_WEBHOOK_URL: hook.url } : {}),
  };
}

function deliveries(dbPath: string): { key: string; channel: string; status: string }[] {
  const db = openTestDb(dbPath);
  try {
    return rows(db, "SELECT key, channel, recipient, status FROM deliveries ORDER BY id");
  } finally {
    db.close();
  }
}

/** One pass of the daemon's notifier on the file, at noon UTC on the simulator's today: the
 * report of yesterday is due, and late, so it goes whether proved or not. */
async function daemonPass(dbPath: string, mail: MailServer, hook: WebhookReceiver): Promise<void> {
  const db = openTestDb(dbPath);
  const session = sqliteSession(db.sqlite);
  const report: Config["messages"] = {
    mail: { smtpUrl: mail.url, from: "pos-sync <reports@example.com>", to: RECIPIENTS },
    webhookUrl: hook.url,
    atMinutes: 0,
  };
  const notifier = new Notifier({
    config: { ...simulatorConfig(sim.current), messages: report },
    storage: {
      readable: () => sqliteReader(db, { lent: true }),
      messages: () => ({ deliveries: new DeliveryStore(session), alerts: new AlertStore(session) }),
    },
    logger: silentLogger(),
    metrics: new DaemonMetrics(),
    waitScale: 0.01,
    now: simulatorNow(sim.current),
  });
  try {
    await notifier.check();
  } finally {
    db.close();
  }
}

describe("report --send", { timeout: 120_000 }, () => {
  it("sends each recipient an e-mail of its own, recorded, and nothing new the second time; --resend sends it again", async () => {
    const dbPath = copyOfSynced();
    const mail = await startMailServer();
    const hook = await startWebhookReceiver();
    try {
      const send = (...flags: string[]) =>
        runCli(["report", "--day", yesterday(), ...flags], sendEnv(dbPath, mail, hook));
      const first = await send("--send");
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toBe("");
      expect(mail.received).toHaveLength(3);
      expect(mail.envelopes.map((e) => e.to).sort()).toEqual(RECIPIENTS.map((r) => [r]));
      for (const [i, message] of mail.received.entries()) {
        // Nobody sees who else gets it.
        expect(addresses(message.to)).toEqual(mail.envelopes[i]?.to);
        expect(message.messageId).toMatch(/^<[0-9a-f]{32}@pos-sync>$/);
      }
      expect(hook.received).toHaveLength(1);
      const idempotencyKey = hook.received[0]?.headers["idempotency-key"];
      expect(idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
      const key = `${yesterday()} of ${sim.current.dataset.locations
        .map((l) => l.location.id)
        .sort()
        .join(",")}`;
      expect(deliveries(dbPath)).toEqual([
        ...RECIPIENTS.map((recipient) => ({ key, channel: "e-mail", recipient, status: "sent" })),
        { key, channel: "webhook", recipient: `http://127.0.0.1:${hook.port}/…`, status: "sent" },
      ]);
      expect(first.stdout).toContain(`Morning report of ${yesterday()} (2 locations):`);
      for (const recipient of RECIPIENTS)
        expect(first.stdout).toContain(`  ${recipient} by e-mail: sent\n`);

      // The same day again, as a second cron line would: nothing new, and it says so.
      const second = await send("--send");
      expect(second.code, second.stderr).toBe(0);
      expect(mail.received).toHaveLength(3);
      expect(hook.received).toHaveLength(1);
      expect(
        second.stdout.match(/: already sent \d{4}-\d\d-\d\d \d\d:\d\d UTC: nothing new/g),
      ).toHaveLength(4);
      expect(second.stdout).toContain("Nothing new: every recipient had it already");
      expect(deliveries(dbPath)).toHaveLength(4);

      // Sent again on purpose: a new message to each, recorded beside the first.
      const again = await send("--resend");
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain(`Morning report of ${yesterday()} (2 locations), sent again:`);
      expect(mail.received).toHaveLength(6);
      expect(
        mail.envelopes
          .slice(3)
          .map((e) => e.to)
          .sort(),
      ).toEqual(RECIPIENTS.map((r) => [r]));
      const firstIds = new Set(mail.received.slice(0, 3).map((m) => m.messageId));
      for (const message of mail.received.slice(3))
        expect(firstIds).not.toContain(message.messageId);
      expect(hook.received).toHaveLength(2);
      expect(hook.received[1]?.headers["idempotency-key"]).not.toBe(idempotencyKey);
      const resent = deliveries(dbPath).slice(4);
      expect(resent).toHaveLength(4);
      for (const row of resent) {
        expect(row.key).toMatch(new RegExp(`^${key} resent \\d{4}-\\d\\d-\\d\\dT`));
        expect(row.status).toBe("sent");
      }
    } finally {
      await mail.close();
      await hook.close();
    }
  });

  it("is the daemon's delivery: neither sends a day's report the other sent", async () => {
    const mail = await startMailServer();
    const hook = await startWebhookReceiver();
    try {
      // report --send first, then the daemon's pass owes nothing.
      const sentByHand = copyOfSynced();
      const first = await runCli(
        ["report", "--day", yesterday(), "--send"],
        sendEnv(sentByHand, mail, hook),
      );
      expect(first.code, first.stderr).toBe(0);
      expect(mail.received).toHaveLength(3);
      await daemonPass(sentByHand, mail, hook);
      expect(mail.received).toHaveLength(3);
      expect(hook.received).toHaveLength(1);
      expect(deliveries(sentByHand)).toHaveLength(4);

      // The daemon first, on a database of its own: it sends the day, and report --send nothing.
      const sentByDaemon = copyOfSynced();
      await daemonPass(sentByDaemon, mail, hook);
      expect(mail.received).toHaveLength(6);
      expect(hook.received).toHaveLength(2);
      for (const message of mail.received.slice(3))
        expect(message.subject).toMatch(/^Morning report/);
      const after = await runCli(
        ["report", "--day", yesterday(), "--send"],
        sendEnv(sentByDaemon, mail, hook),
      );
      expect(after.code, after.stderr).toBe(0);
      expect(after.stdout).toContain("Nothing new: every recipient had it already");
      expect(mail.received).toHaveLength(6);
      expect(hook.received).toHaveLength(2);
    } finally {
      await mail.close();
      await hook.close();
    }
  });

  it("leaves a message the mail server defers waiting in the outbox, says so, and sends it at the next --send", async () => {
    const dbPath = copyOfSynced();
    let busy = true;
    const mail = await startMailServer({ deferRecipient: () => busy });
    const to = RECIPIENTS.slice(0, 2);
    try {
      const send = () =>
        runCli(["report", "--day", yesterday(), "--send"], sendEnv(dbPath, mail, undefined, to));
      const deferred = await send();
      expect(deferred.code).toBe(1);
      expect(mail.received).toEqual([]);
      expect(deferred.stdout).toMatch(
        new RegExp(
          `  ${to[0]} by e-mail: not delivered now: it waits in the outbox \\(e-mail: the mail server 127\\.0\\.0\\.1:${mail.port} deferred .* for now \\(450 4\\.2\\.1 Mailbox busy, try later\\)\\), next attempt from `,
        ),
      );
      // The other was not tried once the server was found busy: it waits too.
      expect(deferred.stdout).toContain(
        `  ${to[1]} by e-mail: not delivered now: it waits in the outbox (not tried yet), next attempt from `,
      );
      expect(deferred.stderr).toBe(
        "pos-sync: report --send: 2 messages could not be delivered now and wait in the outbox: the daemon, if it runs, tries them again; otherwise run pos-sync report --send again\n",
      );
      expect(deferred.stdout + deferred.stderr).not.toMatch(/will be tried again/);

      const status = await runCli(["status", "--json"], { POS_DB_PATH: dbPath });
      const outbox = JSON.parse(status.stdout).messages as {
        waiting: number;
        firstWaiting: { recipient: string; nextAttemptAt: string; lastError: string | null }[];
      };
      expect(outbox.waiting).toBe(2);
      expect(outbox.firstWaiting[0]?.lastError).toMatch(/450 4\.2\.1 Mailbox busy/);

      // The server takes mail again; once the back-off passed, the next --send sends each once.
      busy = false;
      await until(
        () => outbox.firstWaiting.every((m) => Date.parse(m.nextAttemptAt) <= Date.now()),
        "the messages' next attempt",
      );
      const sent = await send();
      expect(sent.code, sent.stderr).toBe(0);
      for (const recipient of to) expect(sent.stdout).toContain(`  ${recipient} by e-mail: sent\n`);
      expect(mail.envelopes.map((e) => e.to).sort()).toEqual(to.map((r) => [r]));
      const nothingNew = await send();
      expect(nothingNew.code).toBe(0);
      expect(mail.received).toHaveLength(2);
    } finally {
      await mail.close();
    }
  });
});
