/**
 * The outbox driven directly on a database, either one: a real SMTP server that refuses one
 * recipient with 550, a webhook receiver answering 404, and messages recorded as the daemon
 * records them. What ends and why is asserted through status' read of the outbox; a lock left by
 * a process that died mid-send, through the rows.
 */
import { expect } from "vitest";
import type { Config } from "../../src/config/config.js";
import { DeliveryStore, type NewDelivery } from "../../src/db/deliveries/deliveries.js";
import { composeReader } from "../../src/db/reads/reader.js";
import { ReadSession } from "../../src/db/reads/session.js";
import type { SqlSession } from "../../src/db/sql/dialect.js";
import { silentLogger } from "../../src/log.js";
import { claim, LOCK_MS } from "../../src/messages/outbox/claim.js";
import { deliverWaiting } from "../../src/messages/outbox/outbox.js";
import { recipientsOf } from "../../src/messages/recipients.js";
import { type MailServer, startMailServer } from "./mail-server.js";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.js";

export const REFUSED = "gone@example.com";
export const KEPT = "manager@example.com";

/** A message owed to each recipient of `report`, as the daemon records it. */
export function owed(report: Config["messages"], key: string): NewDelivery[] {
  return recipientsOf(report).map((r) => ({
    kind: "morning report",
    key,
    channel: r.channel,
    recipient: r.recipient,
    subject: `Morning report ${key}`,
    body: JSON.stringify(
      r.channel === "e-mail" ? { text: "the report", html: "<p>the report</p>" } : { text: "x" },
    ),
  }));
}

export interface Servers {
  mail: MailServer;
  hook: WebhookReceiver;
  report: Config["messages"];
  close(): Promise<void>;
}

/** A mail server refusing REFUSED, a webhook receiver answering 404, and settings naming both
 * recipients and the receiver. */
export async function refusingServers(): Promise<Servers> {
  const mail = await startMailServer({ rejectRecipient: (address) => address === REFUSED });
  const hook = await startWebhookReceiver({ status: 404 });
  return {
    mail,
    hook,
    report: {
      mail: { smtpUrl: mail.url, from: "reports@example.com", to: [KEPT, REFUSED] },
      webhookUrl: hook.url,
      atMinutes: 420,
    },
    close: async () => {
      await mail.close();
      await hook.close();
    },
  };
}

const options = (report: Config["messages"]) => ({
  channels: report,
  logger: silentLogger(),
  waitScale: 1,
});

/** The 550'd e-mail and the 404'd webhook end as failed after one attempt, with the server's
 * answer; the other recipient gets its e-mail; a second pass sends nothing, and nothing waits. */
export async function refusedForGood(session: SqlSession): Promise<void> {
  const store = new DeliveryStore(session);
  const reader = composeReader(new ReadSession(session, "test"));
  const servers = await refusingServers();
  try {
    await store.record(owed(servers.report, "2026-11-28 of loc-a,loc-b"), new Date());

    const pass = await deliverWaiting(store, options(servers.report));
    expect(servers.mail.envelopes.map((e) => e.to)).toEqual([[KEPT]]);
    expect(servers.hook.received).toHaveLength(1);

    const state = await reader.messages.deliveryState();
    expect(state.waiting).toBe(0);
    expect(state.failed).toBe(2);
    expect(state.retired).toBe(0);
    expect(pass).toEqual({ sent: 1, failed: 2, retired: 0 });
    const byChannel = Object.fromEntries(state.lastUndelivered.map((m) => [m.channel, m]));
    expect(byChannel["e-mail"]).toMatchObject({
      recipient: REFUSED,
      status: "failed",
      attempts: 1,
    });
    expect(byChannel["e-mail"]?.reason).toMatch(
      new RegExp(
        `^e-mail: the mail server 127\\.0\\.0\\.1:\\d+ refused the recipient ${REFUSED} \\(550 5\\.1\\.1 No such user here\\)`,
      ),
    );
    expect(byChannel.webhook).toMatchObject({ status: "failed", attempts: 1 });
    expect(byChannel.webhook?.reason).toBe(
      `webhook: http://127.0.0.1:${servers.hook.port}/… answered 404 Not Found: check POS_REPORT_WEBHOOK_URL`,
    );

    // Due or not, a message ended is not tried again.
    const later = new Date(Date.now() + 2 * 3_600_000);
    expect(await deliverWaiting(store, { ...options(servers.report), now: () => later })).toEqual({
      sent: 0,
      failed: 0,
      retired: 0,
    });
    expect(servers.mail.envelopes).toHaveLength(1);
    expect(servers.hook.received).toHaveLength(1);
  } finally {
    await servers.close();
  }
}

/** Messages waiting for a recipient taken out of POS_REPORT_TO, and for a webhook whose address
 * changed, are retired at the next pass, each saying why; nothing waits after it. */
export async function retiredWhenUnset(session: SqlSession): Promise<void> {
  const store = new DeliveryStore(session);
  const reader = composeReader(new ReadSession(session, "test"));
  const servers = await refusingServers();
  try {
    await store.record(owed(servers.report, "2026-11-28 of loc-a,loc-b"), new Date());
    expect((await reader.messages.deliveryState()).waiting).toBe(3);

    const report: Config["messages"] = {
      ...servers.report,
      mail: { smtpUrl: servers.mail.url, from: "reports@example.com", to: [KEPT] },
      webhookUrl: "https://hooks.example.com/services/T0/B0/x",
    };
    const pass = await deliverWaiting(store, options(report));
    expect(servers.mail.envelopes.map((e) => e.to)).toEqual([[KEPT]]);
    expect(servers.hook.received).toHaveLength(0);

    const state = await reader.messages.deliveryState();
    expect(state.waiting).toBe(0);
    expect(state.retired).toBe(2);
    expect(state.failed).toBe(0);
    expect(pass).toEqual({ sent: 1, failed: 0, retired: 2 });
    expect(
      state.lastUndelivered
        .map(({ channel, recipient, status, attempts, reason }) => ({
          channel,
          recipient,
          status,
          attempts,
          reason,
        }))
        .sort((a, b) => a.channel.localeCompare(b.channel)),
    ).toEqual([
      {
        channel: "e-mail",
        recipient: REFUSED,
        status: "retired",
        attempts: 0,
        reason: "POS_REPORT_TO no longer lists it",
      },
      {
        channel: "webhook",
        recipient: `http://127.0.0.1:${servers.hook.port}/…`,
        status: "retired",
        attempts: 0,
        reason: "the webhook address changed (POS_REPORT_WEBHOOK_URL)",
      },
    ]);
  } finally {
    await servers.close();
  }
}

/** A message's row as the outbox left it. */
async function rowOf(session: SqlSession, id: number) {
  const [row] = await session.all<{ status: string; attempts: number | string; lockedBy: string }>(
    `SELECT status, attempts, locked_by AS "lockedBy" FROM deliveries WHERE id = ${session.dialect.param(1)}`,
    [id],
  );
  return row === undefined ? undefined : { ...row, attempts: Number(row.attempts) };
}

/** A process takes a message and dies before it settles it: no other process sends it while
 * its lock holds, one sends it once the lock expired, once, and the dead process's late word
 * changes nothing. */
export async function lockLeftByDeadProcess(session: SqlSession): Promise<void> {
  const store = new DeliveryStore(session);
  const mail = await startMailServer();
  try {
    const report: Config["messages"] = {
      mail: { smtpUrl: mail.url, from: "reports@example.com", to: [KEPT] },
      webhookUrl: undefined,
      atMinutes: 420,
    };
    const took = new Date();
    await store.record(owed(report, "2026-11-28 of loc-a"), took);
    const [message] = await store.due(took, took, 10);
    if (!message) throw new Error("the message was not recorded");
    expect(await claim(store, message.id, "dead", took)).toBe(1);
    // Taken: no one else takes it, not even the same owner twice.
    expect(await claim(store, message.id, "alive", took)).toBeUndefined();
    expect(await claim(store, message.id, "dead", took)).toBeUndefined();

    const passAt = (ms: number) =>
      deliverWaiting(store, {
        channels: report,
        logger: silentLogger(),
        waitScale: 1,
        owner: "alive",
        now: () => new Date(took.getTime() + ms),
      });
    expect(await passAt(60_000)).toEqual({ sent: 0, failed: 0, retired: 0 });
    expect(await passAt(LOCK_MS)).toEqual({ sent: 0, failed: 0, retired: 0 });
    expect(mail.envelopes).toHaveLength(0);
    expect(await rowOf(session, message.id)).toEqual({
      status: "waiting",
      attempts: 1,
      lockedBy: "dead",
    });

    expect(await passAt(LOCK_MS + 1_000)).toEqual({ sent: 1, failed: 0, retired: 0 });
    expect(mail.envelopes.map((e) => e.to)).toEqual([[KEPT]]);
    expect(await rowOf(session, message.id)).toEqual({
      status: "sent",
      attempts: 2,
      lockedBy: null,
    });

    // Sent once: a later pass, and the dead process's late failure, change nothing.
    expect(await passAt(2 * LOCK_MS)).toEqual({ sent: 0, failed: 0, retired: 0 });
    await store.retryLater(message.id, "dead", new Date(took.getTime() + 3 * LOCK_MS), "late");
    await store.failedForGood(message.id, "dead", new Date(), "late");
    expect(await rowOf(session, message.id)).toMatchObject({ status: "sent", attempts: 2 });
    expect(mail.envelopes).toHaveLength(1);
  } finally {
    await mail.close();
  }
}
