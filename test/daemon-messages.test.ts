/**
 * The daemon's messages, against a real SMTP server and a webhook receiver on 127.0.0.1: the
 * morning report sent once per recipient across a restart, kept in the outbox while the mail
 * server is down and sent when it is back; and a health alert sent once when a key is rejected,
 * however many runs and restarts it lasts, and once when it ends. When the sync is failing, and
 * that an alert opens and closes once over many runs, are test/message-rules.test.ts's.
 */
import { describe, expect, it } from "vitest";
import { keyFingerprint } from "../src/secrets.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { closedPort } from "./helpers/closed-port.js";
import { logEvents, startDaemon } from "./helpers/daemon.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { startMailServer } from "./helpers/mail-server.js";
import { useSimulator } from "./helpers/simulator.js";
import { until } from "./helpers/wait.js";
import { startWebhookReceiver } from "./helpers/webhook-receiver.js";

const tempPath = useTempDir();
// Two locations on one clock (UTC+01:00): one report a day.
const sim = useSimulator({ today: simulatorToday(), days: 10, seed: 31, locations: 2 });

const RECIPIENTS = ["manager@example.com", "owner@example.com"];
const PASSWORD = "s3cret-smtp-pass";

/** Waits until the daemon has done a pass of its notifier after its first run: the alerts gauge
 * is labelled only once the outbox was read. */
async function notifierPassed(url: string): Promise<void> {
  await until(
    async () => (await (await fetch(`${url}/metrics`)).text()).includes("pos_sync_alerts_open{"),
    "the notifier's first pass",
  );
}

/** The alerts a webhook received, in order. */
function alertsOf(hook: Awaited<ReturnType<typeof startWebhookReceiver>>) {
  return alertBodiesOf(hook).map((body) => body.alert);
}

/** The alerts' subjects, the first line of their `text`, in order. */
function alertSubjectsOf(hook: Awaited<ReturnType<typeof startWebhookReceiver>>) {
  return alertBodiesOf(hook).map((body) => body.text.split("\n")[0]);
}

function alertBodiesOf(hook: Awaited<ReturnType<typeof startWebhookReceiver>>) {
  return hook.received
    .map((r) => JSON.parse(r.body) as { text: string; alert?: Record<string, unknown> })
    .flatMap((body) => (body.alert ? [{ text: body.text, alert: body.alert }] : []));
}

// Each test starts the daemon, often twice, and waits for runs on a schedule of its own.
describe("the daemon's messages", { timeout: 120_000 }, () => {
  it("sends each recipient the morning report once, keeps it while the mail server is down, and never again after a restart", async () => {
    const dbPath = tempPath();
    const mailPort = await closedPort();
    const hook = await startWebhookReceiver();
    const env = simulatorEnv(sim.current, dbPath, {
      POS_REPORT_SMTP_URL: `smtp://reports:${PASSWORD}@127.0.0.1:${mailPort}`,
      POS_REPORT_FROM: "pos-sync <reports@example.com>",
      POS_REPORT_TO: RECIPIENTS.join(", "),
      POS_REPORT_WEBHOOK_URL: hook.url,
      // Due as soon as yesterday is complete and proved, whatever the hour the test runs at.
      POS_REPORT_AT: "00:00",
    });
    let daemon = await startDaemon(["--schedule", "0 0 1 1 *"], env);
    let mail: Awaited<ReturnType<typeof startMailServer>> | undefined;
    try {
      // The mail server is down: the webhook gets the report, the e-mails wait.
      const webhook = JSON.parse((await hook.next()).body) as { text: string };
      for (const location of sim.current.dataset.locations)
        expect(webhook.text).toContain(location.location.name);
      await until(
        () =>
          logEvents(daemon.output()).filter(
            (e) => e.msg === "could not send the morning report by e-mail; it waits in the outbox",
          ).length >= RECIPIENTS.length,
        "the e-mails' failed attempts",
      );
      const waiting = await runCli(["status", "--json"], { POS_DB_PATH: dbPath });
      const state = JSON.parse(waiting.stdout).messages;
      expect(state.waiting).toBe(RECIPIENTS.length);
      expect(state.firstWaiting[0].lastError).toMatch(
        /^e-mail: cannot reach the mail server 127\.0\.0\.1:\d+ \(connection refused/,
      );
      expect(state.lastReport.recipients).toEqual([hook.url.replace(/\/hooks.*/, "/…")]);

      // The server comes back: the outbox sends each e-mail on its next attempt.
      mail = await startMailServer({ port: mailPort, users: { reports: PASSWORD } });
      const first = await mail.next();
      const second = await mail.next();
      const day = JSON.parse(waiting.stdout).messages.lastReport.key.slice(0, 10) as string;
      const weekday = new Date(`${day}T12:00:00Z`).toLocaleDateString("en-GB", {
        weekday: "long",
        timeZone: "UTC",
      });
      for (const received of [first, second]) {
        expect(received.subject).toMatch(new RegExp(`^Morning report, ${weekday} `));
        expect(received.text).toContain(sim.current.dataset.locations[0]?.location.name);
        expect(received.html).toContain("<h1");
      }
      expect(mail.envelopes.map((e) => e.to).sort()).toEqual(RECIPIENTS.map((r) => [r]));

      await until(
        async () =>
          /^pos_sync_messages_total\{channel="e-mail",outcome="sent"\} 2$/m.test(
            await (await fetch(`${daemon.url}/metrics`)).text(),
          ),
        "the e-mails counted as sent",
      );

      // Restarted, the daemon syncs and looks again: nothing is owed, nothing is sent.
      daemon.child.kill("SIGTERM");
      expect((await daemon.exited).code).toBe(0);
      daemon = await startDaemon(["--schedule", "0 0 1 1 *"], env);
      await until(() => logEvents(daemon.output()).some((e) => e.msg === "run finished"));
      await notifierPassed(daemon.url);
      expect(mail.received).toHaveLength(2);
      expect(hook.received).toHaveLength(1);
      const db = openTestDb(dbPath);
      try {
        expect(
          rows(db, "SELECT channel, status FROM deliveries ORDER BY channel, recipient"),
        ).toEqual([
          { channel: "e-mail", status: "sent" },
          { channel: "e-mail", status: "sent" },
          { channel: "webhook", status: "sent" },
        ]);
        // Neither the SMTP password nor the webhook's path (its token) is stored.
        const stored = JSON.stringify(rows(db, "SELECT * FROM deliveries"));
        expect(stored).not.toContain(PASSWORD);
        expect(stored).not.toContain("test-receiver");
      } finally {
        db.close();
      }
      expect(daemon.output()).not.toContain(PASSWORD);
      const metrics = await (await fetch(`${daemon.url}/metrics`)).text();
      expect(metrics).toContain("pos_sync_outbox_waiting 0");
      const page = await (await fetch(`${daemon.url}/`)).text();
      expect(page).toMatch(
        /<section id="messages"[^>]*><h2>Messages<\/h2><ul><li>Morning report {2}\d{4}-\d\d-\d\d \(2 locations\) sent /,
      );
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
      await mail?.close();
      await hook.close();
    }
  });

  it("alerts once for a rejected key, across a restart, and says when the key is gone", async () => {
    const dbPath = tempPath();
    const hook = await startWebhookReceiver();
    const revoked = "pos_live_revoked_key_000000";
    const env = (keys: string[]) =>
      simulatorEnv(sim.current, dbPath, {
        POS_API_KEYS: keys.join(","),
        POS_REPORT_WEBHOOK_URL: hook.url,
      });
    const runs = (daemon: { output: () => string }) =>
      logEvents(daemon.output()).filter((e) => e.msg === "run finished");
    let daemon = await startDaemon(
      ["--schedule", "* * * * * *"],
      env([...sim.current.keys, revoked]),
    );
    try {
      await until(() => runs(daemon).length >= 4, "four runs", 60_000);
      await until(() => alertsOf(hook).length >= 1, "the alert");
      // The other keys synced: the runs were partial, and told once, by the key's alert.
      expect(runs(daemon).map((e) => e.status)).toContain("partial");
      daemon.child.kill("SIGTERM");
      await daemon.exited;

      daemon = await startDaemon(
        ["--schedule", "* * * * * *"],
        env([...sim.current.keys, revoked]),
      );
      await until(() => runs(daemon).length >= 3, "three runs after the restart", 60_000);
      await notifierPassed(daemon.url);
      expect(alertsOf(hook)).toEqual([
        expect.objectContaining({
          kind: "key rejected",
          subject: keyFingerprint(revoked),
          state: "opened",
        }),
      ]);
      expect(alertSubjectsOf(hook)).toEqual([
        `pos-sync alert: key rejected for ${keyFingerprint(revoked)}`,
      ]);
      daemon.child.kill("SIGTERM");
      await daemon.exited;

      // The key taken out of the settings: its alert ends.
      daemon = await startDaemon(["--schedule", "0 0 1 1 *"], env(sim.current.keys));
      await until(() => alertsOf(hook).length >= 2, "the alert's end");
      expect(alertsOf(hook)[1]).toMatchObject({
        kind: "key rejected",
        state: "closed",
        resolution: "no longer configured",
      });
      expect(hook.received.map((r) => r.body).join("\n")).not.toContain(revoked);
      // Closed, it is no longer listed as open.
      const status = JSON.parse(
        (await runCli(["status", "--json"], { POS_DB_PATH: dbPath })).stdout,
      );
      expect(status.messages.openAlerts).toEqual([]);
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
      await hook.close();
    }
  });

  it("refuses a report hour that is not HH:MM at start, in one line (exit 2)", async () => {
    const result = await runCli(
      ["daemon"],
      simulatorEnv(sim.current, tempPath(), { POS_REPORT_AT: "7pm" }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'pos-sync: POS_REPORT_AT must be a time of day as HH:MM (07:00, 18:30), got "7pm"',
    );
  });

  it("refuses recipients not separated by commas at start, in the daemon and in report, in one line (exit 2)", async () => {
    const env = simulatorEnv(sim.current, tempPath(), {
      POS_REPORT_SMTP_URL: "smtp://127.0.0.1:25",
      POS_REPORT_FROM: "reports@example.com",
      POS_REPORT_TO: "boss@example.com ops@example.com",
    });
    for (const command of [["daemon"], ["report", "--send"]]) {
      const result = await runCli(command, env);
      expect(result.code, command[0]).toBe(2);
      expect(result.stderr.trim()).toBe(
        'pos-sync: POS_REPORT_TO has "boss@example.com ops@example.com", which is not an e-mail address: expected name@example.com or Name <name@example.com>, separated by commas',
      );
    }
  });
});
