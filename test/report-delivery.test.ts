/**
 * The morning report's delivery against real servers on 127.0.0.1: an SMTP server (smtp-server)
 * that receives what nodemailer sends and hands it back parsed, plain HTTP servers for the
 * webhook, a closed port, and servers that accept a connection and then say nothing. Every
 * failure must be a DeliveryError that says whether to retry, in one line naming the channel,
 * and never shows the SMTP password or a URL's credentials.
 */
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import type { AddressObject } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import {
  describeSmtpUrl,
  describeWebhookUrl,
  type MailSettings,
  parseSmtpUrl,
} from "../src/config/channel-addresses.js";
import { checkMailSettings, checkWebhookUrl } from "../src/config/channel-settings.js";
import { loadConfig } from "../src/config/config.js";
import { readSmtpCa } from "../src/config/smtp-ca.js";
import { ConfigError } from "../src/errors.js";
import { sendMail } from "../src/messages/transports/mail.js";
import { mailTlsOptions, mustUseTls } from "../src/messages/transports/mail-tls.js";
import { DeliveryError, type OutgoingMail } from "../src/messages/transports/transport.js";
import { postWebhook } from "../src/messages/transports/webhook.js";
import { closedPort } from "./helpers/closed-port.js";
import { startMailServer } from "./helpers/mail-server.js";
import { startWebhookReceiver } from "./helpers/webhook-receiver.js";

const PASSWORD = "s3cret-Pa55word";
const WEBHOOK_TOKEN = "T0KEN-9f8e7d6c5b4a";

/** Self-signed for mail.example and 127.0.0.1, valid 2000 to 2100 (test/fixtures/README.md). */
const SELF_SIGNED = {
  key: readFileSync(new URL("fixtures/smtp-tls/self-signed.key", import.meta.url), "utf8"),
  cert: readFileSync(new URL("fixtures/smtp-tls/self-signed.pem", import.meta.url), "utf8"),
};

const MAIL: OutgoingMail = {
  subject: "Morning report — Le Petit Zinc, 2026-11-22",
  text: "Sales 6,485.71 (+4.2 % on the last four Sundays)\nOrders 103\n",
  html: "<!doctype html><html><body><h1>Le Petit Zinc</h1><p>Sales <b>6,485.71</b></p></body></html>",
};

/** Everything torn down after each test, servers and sockets alike. */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function mailServer(options?: Parameters<typeof startMailServer>[0]) {
  const server = await startMailServer(options);
  cleanups.push(() => server.close());
  return server;
}

async function webhookReceiver(options?: Parameters<typeof startWebhookReceiver>[0]) {
  const receiver = await startWebhookReceiver(options);
  cleanups.push(() => receiver.close());
  return receiver;
}

/** A TCP server that accepts connections and never sends a byte: an SMTP server without its
 * greeting, or an HTTP server that never answers. `connected` resolves at the first client. */
async function silentServer(): Promise<{ port: number; connected: Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {}); // the client hanging up is the expected end
    socket.resume(); // read and ignore whatever comes
  });
  const connected = once(server, "connection").then(() => {});
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    await once(server, "close");
  });
  return { port: (server.address() as AddressInfo).port, connected };
}

/** An SMTP server that offers STARTTLS and answers it with `reply`: one whose TLS is broken. */
async function startTlsRefusingServer(reply: string): Promise<{ port: number }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.write("220 mail.example ESMTP\r\n");
    let pending = "";
    socket.on("data", (chunk: Buffer) => {
      pending += chunk.toString("latin1");
      let end = pending.indexOf("\r\n");
      while (end >= 0) {
        const command = pending.slice(0, end).toUpperCase();
        pending = pending.slice(end + 2);
        if (/^EHLO\b/.test(command)) socket.write("250-mail.example\r\n250 STARTTLS\r\n");
        else if (command === "STARTTLS") socket.write(`${reply}\r\n`);
        else if (command === "QUIT") socket.end("221 Bye\r\n");
        else socket.write("503 5.5.1 Not now\r\n");
        end = pending.indexOf("\r\n");
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    await once(server, "close");
  });
  return { port: (server.address() as AddressInfo).port };
}

async function deliveryErrorOf(promise: Promise<unknown>): Promise<DeliveryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return error as DeliveryError;
}

/** The error in full, own and hidden properties, cause and stack included. */
function everything(error: unknown): string {
  return inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true });
}

function expectOneLine(error: Error, channel: "e-mail" | "webhook"): void {
  expect(error.message).toMatch(new RegExp(`^${channel}: `));
  expect(error.message).not.toMatch(/[\r\n]/);
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((o) => o.value.map((v) => v.address ?? ""));
}

function settings(smtpUrl: string, to: readonly string[] = ["owner@example.com"]): MailSettings {
  return { smtpUrl, from: "pos-sync <reports@example.com>", to };
}

describe("e-mail", () => {
  it("delivers one multipart message, text and HTML, to every recipient", async () => {
    const server = await mailServer();
    const to = ["owner@example.com", "Chef de salle <floor@example.com>", "accounts@example.org"];
    const receipt = await sendMail(settings(server.url, to), MAIL);
    expect(receipt.rejected).toEqual([]);

    const mail = await server.next();
    expect(mail.subject).toBe(MAIL.subject);
    expect(addresses(mail.from)).toEqual(["reports@example.com"]);
    expect(mail.from?.value[0]?.name).toBe("pos-sync");
    expect(addresses(mail.to)).toEqual([
      "owner@example.com",
      "floor@example.com",
      "accounts@example.org",
    ]);
    expect(server.envelopes[0]).toEqual({
      from: "reports@example.com",
      to: ["owner@example.com", "floor@example.com", "accounts@example.org"],
      secure: false,
    });
    expect(mail.text).toBe(MAIL.text);
    expect(mail.html).toBe(MAIL.html);
    expect(mail.headers.get("content-type")).toMatchObject({ value: "multipart/alternative" });
    expect(mail.attachments).toEqual([]);
    expect(mail.messageId).toBe(receipt.messageId);
  });

  it("logs in with the right password, percent-encoded in the URL", async () => {
    const password = `${PASSWORD}:@/%+é`;
    const server = await mailServer({ users: { reports: password } });
    await sendMail(settings(server.urlWith("reports", password)), MAIL);
    await server.next();
    expect(server.envelopes[0]?.user).toBe("reports");
  });

  it("says a server requiring a login it was not given is not worth retrying", async () => {
    const server = await mailServer({ users: { reports: PASSWORD } });
    const error = await deliveryErrorOf(sendMail(settings(server.url), MAIL));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("requires a login (530");
    expect(error.message).toContain("put the user and password in POS_REPORT_SMTP_URL");
  });

  it("shows no reply of a server that echoes the password back", async () => {
    const base64 = Buffer.from(`\u0000reports\u0000${PASSWORD}`).toString("base64");
    const server = new SMTPServer({
      logger: false,
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      disableReverseLookup: true,
      onAuth(auth, _session, callback) {
        callback(new Error(`no user with password ${auth.password} (${base64})`));
      },
    });
    server.listen(0, "127.0.0.1");
    await once(server.server, "listening");
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.server.address() as AddressInfo;

    const error = await deliveryErrorOf(
      sendMail(settings(`smtp://reports:${PASSWORD}@127.0.0.1:${port}`), MAIL),
    );
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("refused the login (535)");
    expect(everything(error)).not.toContain(PASSWORD);
    expect(everything(error)).not.toContain(base64);
  });

  it("says a wrong password is not worth retrying, without showing it", async () => {
    const server = await mailServer({ users: { reports: "the-right-one" } });
    const error = await deliveryErrorOf(
      sendMail(settings(server.urlWith("reports", PASSWORD)), MAIL),
    );
    expect(server.logins).toEqual(["reports"]);
    expect(error.channel).toBe("e-mail");
    expect(error.retryable).toBe(false);
    expectOneLine(error, "e-mail");
    expect(error.message).toContain(`127.0.0.1:${server.port}`);
    expect(error.message).toContain("535");
    expect(error.message).toContain("check the user and password in POS_REPORT_SMTP_URL");
    expect(everything(error)).not.toContain(PASSWORD);
    expect(everything(error)).not.toContain(encodeURIComponent(PASSWORD));
    expect(server.received).toEqual([]);
  });

  it("says an unreachable server is worth retrying, naming host and port but no password", async () => {
    const port = await closedPort();
    const error = await deliveryErrorOf(
      sendMail(settings(`smtp://reports:${PASSWORD}@127.0.0.1:${port}`), MAIL),
    );
    expect(error.channel).toBe("e-mail");
    expect(error.retryable).toBe(true);
    expectOneLine(error, "e-mail");
    expect(error.message).toBe(
      `e-mail: cannot reach the mail server 127.0.0.1:${port} (connection refused, ECONNREFUSED): check POS_REPORT_SMTP_URL`,
    );
    expect(everything(error)).not.toContain(PASSWORD);
  });

  it("gives up on a server that accepts the connection and never greets, within the timeout", async () => {
    const silent = await silentServer();
    const started = performance.now();
    const sending = sendMail(
      settings(`smtp://reports:${PASSWORD}@127.0.0.1:${silent.port}`),
      MAIL,
      { timeoutMs: 300 },
    );
    await silent.connected;
    const error = await deliveryErrorOf(sending);
    // Bounded by the timeout, with room for a loaded machine, far from nodemailer's own 30 s.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error.retryable).toBe(true);
    expectOneLine(error, "e-mail");
    expect(error.message).toContain(`127.0.0.1:${silent.port} did not answer in time`);
    expect(error.message).toContain("0.3 s");
    expect(everything(error)).not.toContain(PASSWORD);
  });

  it("says a busy server is worth retrying", async () => {
    const busy = createServer((socket) => socket.end("421 Too many connections, try later\r\n"));
    busy.listen(0, "127.0.0.1");
    await once(busy, "listening");
    cleanups.push(async () => {
      busy.close();
      await once(busy, "close");
    });
    const { port } = busy.address() as AddressInfo;
    const error = await deliveryErrorOf(sendMail(settings(`smtp://127.0.0.1:${port}`), MAIL));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      `e-mail: the mail server 127.0.0.1:${port} is not taking mail for now (421 Too many connections, try later)`,
    );
  });

  it("says TLS spoken to a plain port is a setting to fix", async () => {
    const server = await mailServer();
    const error = await deliveryErrorOf(
      sendMail(settings(`smtps://reports:${PASSWORD}@127.0.0.1:${server.port}`), MAIL),
    );
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("does not speak TLS on that port");
    expect(error.message).toContain("smtps:// for 465");
    expect(everything(error)).not.toContain(PASSWORD);
  });

  it("says a server that took the message's data and never confirmed it may or may not have delivered it", async () => {
    const server = await mailServer({ hangAfterData: true });
    const sending = sendMail(settings(server.url), MAIL, { timeoutMs: 500 });
    await server.dataReceived;
    const error = await deliveryErrorOf(sending);
    expect(error.retryable).toBe(true);
    expectOneLine(error, "e-mail");
    expect(error.message).toBe(
      `e-mail: the mail server 127.0.0.1:${server.port} took the message's data but did not confirm it (no answer within 0.5 s): it may or may not have delivered it`,
    );
  });

  it("delivers through a server slow at every step: the timeout bounds each step, not the message", async () => {
    // Four answers of 0.6 s each: every one within the 1.5 s timeout, the whole beyond it.
    const server = await mailServer({ delayMs: 600 });
    const started = performance.now();
    await sendMail(settings(server.url), MAIL, { timeoutMs: 1_500 });
    expect(performance.now() - started).toBeGreaterThan(1_500);
    expect((await server.next()).subject).toBe(MAIL.subject);
  });

  it("says a refused recipient is not worth retrying, and names it", async () => {
    const server = await mailServer({
      rejectRecipient: (address) => address === "gone@example.com",
    });
    const error = await deliveryErrorOf(sendMail(settings(server.url, ["gone@example.com"]), MAIL));
    expect(error.channel).toBe("e-mail");
    expect(error.retryable).toBe(false);
    expectOneLine(error, "e-mail");
    expect(error.message).toContain("refused the recipient gone@example.com");
    expect(error.message).toContain("550");
    expect(error.message).toContain("check POS_REPORT_TO");
    expect(server.received).toEqual([]);
  });

  it("delivers to the other recipients when the server refuses one, and says which", async () => {
    const server = await mailServer({
      rejectRecipient: (address) => address === "gone@example.com",
    });
    const receipt = await sendMail(
      settings(server.url, ["owner@example.com", "gone@example.com"]),
      MAIL,
    );
    expect(receipt.rejected).toEqual(["gone@example.com"]);
    await server.next();
    expect(server.envelopes[0]?.to).toEqual(["owner@example.com"]);
  });
});

describe("e-mail over TLS", () => {
  it("delivers over STARTTLS to a relay on the host with a self-signed certificate, as a stock Postfix offers", async () => {
    const server = await mailServer({ certificate: SELF_SIGNED });
    await sendMail(settings(server.url), MAIL);
    expect((await server.next()).subject).toBe(MAIL.subject);
    expect(server.envelopes[0]?.secure).toBe(true);
  });

  it("logs in over STARTTLS to a relay on the host with a self-signed certificate", async () => {
    const server = await mailServer({ certificate: SELF_SIGNED, users: { reports: PASSWORD } });
    await sendMail(settings(server.urlWith("reports", PASSWORD)), MAIL);
    await server.next();
    expect(server.envelopes[0]).toMatchObject({ user: "reports", secure: true });
  });

  it("trusts the certificate POS_REPORT_SMTP_CA names", async () => {
    const server = await mailServer({ certificate: SELF_SIGNED });
    await sendMail({ ...settings(server.url), ca: SELF_SIGNED.cert }, MAIL);
    await server.next();
    expect(server.envelopes[0]?.secure).toBe(true);
  });

  it("refuses a server whose certificate is not the one POS_REPORT_SMTP_CA names, before logging in", async () => {
    // smtp-server's built-in certificate: self-signed, for another name.
    const server = await mailServer({ offerStartTls: true, users: { reports: PASSWORD } });
    const error = await deliveryErrorOf(
      sendMail({ ...settings(server.urlWith("reports", PASSWORD)), ca: SELF_SIGNED.cert }, MAIL),
    );
    expect(error.retryable).toBe(false);
    expectOneLine(error, "e-mail");
    expect(error.message).toContain(
      `the TLS connection to the mail server 127.0.0.1:${server.port} failed`,
    );
    expect(error.message).toContain("must be the one in POS_REPORT_SMTP_CA or signed by it");
    expect(server.logins).toEqual([]);
    expect(everything(error)).not.toContain(PASSWORD);
  });

  it("checks another machine's certificate against the public CAs, or against POS_REPORT_SMTP_CA's alone", () => {
    const remote = parseSmtpUrl(`smtp://reports:${PASSWORD}@mail.example.com:587`);
    expect(mailTlsOptions(remote, undefined)).toEqual({});
    expect(mailTlsOptions(remote, SELF_SIGNED.cert)).toEqual({ ca: SELF_SIGNED.cert });
    expect(mustUseTls(remote)).toBe(true);
    expect(mustUseTls(parseSmtpUrl(`smtps://reports:${PASSWORD}@mail.example.com`))).toBe(false);
    expect(mailTlsOptions(parseSmtpUrl("smtp://127.0.0.1.example.com"), undefined)).toEqual({});
  });

  it.each(["127.0.0.1", "127.0.0.53", "localhost", "[::1]"])(
    "takes %s's certificate unchecked, unless POS_REPORT_SMTP_CA names one",
    (host) => {
      const local = parseSmtpUrl(`smtp://reports:${PASSWORD}@${host}:25`);
      expect(mailTlsOptions(local, undefined)).toEqual({ rejectUnauthorized: false });
      expect(mailTlsOptions(local, SELF_SIGNED.cert)).toEqual({ ca: SELF_SIGNED.cert });
      expect(mustUseTls(local)).toBe(false);
    },
  );

  it.each([
    ["a password", PASSWORD],
    ["no password", undefined],
  ])(
    "says a server refusing the STARTTLS it offers cannot start TLS for now, with %s",
    async (_case, password) => {
      const { port } = await startTlsRefusingServer(
        "454 4.7.0 TLS not available due to temporary reason",
      );
      const url =
        password === undefined
          ? `smtp://127.0.0.1:${port}`
          : `smtp://reports:${password}@127.0.0.1:${port}`;
      const error = await deliveryErrorOf(sendMail(settings(url), MAIL));
      expect(error.retryable).toBe(true);
      expect(error.message).toBe(
        `e-mail: the mail server 127.0.0.1:${port} cannot start TLS for now (454 4.7.0 TLS not available due to temporary reason)`,
      );
    },
  );

  it("says a server refusing the STARTTLS it offers for good needs its TLS fixed, not that a password was kept back", async () => {
    const { port } = await startTlsRefusingServer("554 5.7.0 TLS broken here");
    const error = await deliveryErrorOf(sendMail(settings(`smtp://127.0.0.1:${port}`), MAIL));
    expect(error.retryable).toBe(false);
    expectOneLine(error, "e-mail");
    expect(error.message).toBe(
      `e-mail: the mail server 127.0.0.1:${port} offers STARTTLS but refused it (554 5.7.0 TLS broken here): its TLS set-up needs fixing, or use smtps:// with its TLS port (usually 465) in POS_REPORT_SMTP_URL`,
    );
  });
});

describe("webhook", () => {
  const PAYLOAD = {
    text: "Morning report — Le Petit Zinc: sales 6,485.71 (+4.2 %)",
    day: "2026-11-22",
    figures: { sales: 6485.71, orders: 103, note: "« café » ✓" },
  };

  it("POSTs the payload as JSON", async () => {
    const receiver = await webhookReceiver();
    await postWebhook(receiver.url, PAYLOAD);
    const request = await receiver.next();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/hooks/test-receiver");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers.authorization).toBeUndefined();
    expect(JSON.parse(request.body)).toEqual(PAYLOAD);
  });

  it("sends the URL's user and password as Basic authorization, percent-decoded as curl does", async () => {
    const receiver = await webhookReceiver();
    const password = `${PASSWORD}@:/é`;
    const url = `http://hook-user:${encodeURIComponent(password)}@127.0.0.1:${receiver.port}/hooks/x?y=1`;
    await postWebhook(url, PAYLOAD);
    const request = await receiver.next();
    expect(request.path).toBe("/hooks/x?y=1");
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from(`hook-user:${password}`, "utf8").toString("base64")}`,
    );
    expect(JSON.parse(request.body)).toEqual(PAYLOAD);
  });

  it("says a 404 is not worth retrying, without the URL's path, query or userinfo", async () => {
    const receiver = await webhookReceiver({ status: 404 });
    const url = `http://hook-user:${PASSWORD}@127.0.0.1:${receiver.port}/services/${WEBHOOK_TOKEN}?token=${WEBHOOK_TOKEN}`;
    const error = await deliveryErrorOf(postWebhook(url, PAYLOAD));
    expect(receiver.received).toHaveLength(1);
    expect(error.channel).toBe("webhook");
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      `webhook: http://127.0.0.1:${receiver.port}/… answered 404 Not Found: check POS_REPORT_WEBHOOK_URL`,
    );
    for (const secret of [WEBHOOK_TOKEN, PASSWORD, "hook-user", "token="]) {
      expect(everything(error)).not.toContain(secret);
    }
  });

  it("says a 503 is worth retrying", async () => {
    const receiver = await webhookReceiver({ status: 503 });
    const error = await deliveryErrorOf(
      postWebhook(`${receiver.url}?key=${WEBHOOK_TOKEN}`, PAYLOAD),
    );
    expect(error.retryable).toBe(true);
    expectOneLine(error, "webhook");
    // For now, and no more: whether it is tried again is the caller's to say.
    expect(error.message).toMatch(/answered 503 Service Unavailable: not taken for now$/);
    expect(everything(error)).not.toContain(WEBHOOK_TOKEN);
  });

  it("says a 429 is worth retrying and a redirect is not followed", async () => {
    const busy = await webhookReceiver({ status: 429 });
    expect((await deliveryErrorOf(postWebhook(busy.url, PAYLOAD))).retryable).toBe(true);
    const moved = await webhookReceiver({ status: 301 });
    const error = await deliveryErrorOf(postWebhook(moved.url, PAYLOAD));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("does not follow");
    expect(moved.received).toHaveLength(1);
  });

  it("gives up on a receiver that never answers, within the timeout", async () => {
    const receiver = await webhookReceiver({ neverAnswer: true });
    const started = performance.now();
    const posting = postWebhook(`${receiver.url}?token=${WEBHOOK_TOKEN}`, PAYLOAD, {
      timeoutMs: 300,
    });
    await receiver.next();
    const error = await deliveryErrorOf(posting);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error.retryable).toBe(true);
    expectOneLine(error, "webhook");
    expect(error.message).toContain("did not answer within 0.3 s");
    expect(everything(error)).not.toContain(WEBHOOK_TOKEN);
  });

  it("gives up on a server that accepts the connection and never reads the request", async () => {
    const silent = await silentServer();
    const posting = postWebhook(`http://127.0.0.1:${silent.port}/hook`, PAYLOAD, {
      timeoutMs: 300,
    });
    await silent.connected;
    const error = await deliveryErrorOf(posting);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("did not answer within 0.3 s");
  });

  it("says an unreachable receiver is worth retrying", async () => {
    const port = await closedPort();
    const error = await deliveryErrorOf(
      postWebhook(`http://127.0.0.1:${port}/services/${WEBHOOK_TOKEN}`, PAYLOAD),
    );
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      `webhook: cannot reach http://127.0.0.1:${port}/… (connection refused, ECONNREFUSED): check POS_REPORT_WEBHOOK_URL`,
    );
  });

  it("reads a large answer's body and still succeeds", async () => {
    const server = createHttpServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("x".repeat(1024 * 1024));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    cleanups.push(async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    });
    const { port } = server.address() as AddressInfo;
    await expect(postWebhook(`http://127.0.0.1:${port}/`, PAYLOAD)).resolves.toBeUndefined();
  });
});

describe("the addresses as shown", () => {
  it("shows the SMTP server as host:port, never the user or password", () => {
    expect(describeSmtpUrl(`smtps://reports:${PASSWORD}@mail.example.com:465`)).toBe(
      "mail.example.com:465",
    );
    expect(describeSmtpUrl(`smtp://reports:${PASSWORD}@mail.example.com`)).toBe(
      "mail.example.com:587",
    );
    expect(describeSmtpUrl("smtps://mail.example.com")).toBe("mail.example.com:465");
    expect(describeSmtpUrl(`smtp://reports:${PASSWORD}@[::1]:2525`)).toBe("[::1]:2525");
    expect(describeSmtpUrl(`not a url ${PASSWORD}`)).toBe("(unreadable address)");
  });

  it("shows a webhook as scheme, host and /…, never its path, query or userinfo", () => {
    expect(
      describeWebhookUrl(`https://u:${PASSWORD}@hooks.example.com/services/${WEBHOOK_TOKEN}?a=b`),
    ).toBe("https://hooks.example.com/…");
    expect(describeWebhookUrl("http://127.0.0.1:8080/")).toBe("http://127.0.0.1:8080");
    expect(describeWebhookUrl(`${WEBHOOK_TOKEN} not a url`)).toBe("(unreadable address)");
  });
});

describe("checking the settings", () => {
  const GOOD = {
    smtpUrl: `smtps://reports:${PASSWORD}@mail.example.com:465`,
    from: "pos-sync <reports@example.com>",
    to: 'owner@example.com, "Dubois, Inès" <ines@example.fr>,accounts@example.org',
  };

  /** The ConfigError `check` throws: one line, naming `setting`, without the password. */
  function configErrorOf(check: () => unknown, setting: string): ConfigError {
    let thrown: unknown;
    try {
      check();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const error = thrown as ConfigError;
    expect(error.message).toContain(setting);
    expect(error.message).not.toMatch(/[\r\n]/);
    expect(everything(error)).not.toContain(PASSWORD);
    expect(everything(error)).not.toContain(encodeURIComponent(PASSWORD));
    return error;
  }

  it("accepts good settings and splits the recipients, a quoted name's comma included", () => {
    expect(checkMailSettings(GOOD)).toEqual({
      smtpUrl: GOOD.smtpUrl,
      from: '"pos-sync" <reports@example.com>',
      to: ["owner@example.com", '"Dubois, Inès" <ines@example.fr>', "accounts@example.org"],
    });
    expect(
      checkMailSettings({
        smtpUrl: " smtp://127.0.0.1:2525 ",
        from: "reports@example.com",
        to: ["a@example.com", " b@example.com "],
      }),
    ).toEqual({
      smtpUrl: "smtp://127.0.0.1:2525",
      from: "reports@example.com",
      to: ["a@example.com", "b@example.com"],
    });
  });

  it.each([
    ["missing", undefined, "POS_REPORT_SMTP_URL is not set"],
    ["unparseable", `smtp://reports:${PASSWORD}@`, "POS_REPORT_SMTP_URL is not a valid address"],
    [
      "another scheme",
      `https://reports:${PASSWORD}@mail.example.com`,
      "must start with smtp:// or smtps://",
    ],
    ["no host", `smtp://reports:${PASSWORD}@:25`, "POS_REPORT_SMTP_URL"],
    ["a password without user", `smtp://:${PASSWORD}@mail.example.com`, "no user"],
    [
      "options after ?",
      `smtp://reports:${PASSWORD}@mail.example.com?pass=${PASSWORD}`,
      "no options",
    ],
    ["a malformed escape", `smtp://reports:${PASSWORD}%zz@mail.example.com`, "malformed %-escape"],
  ])("refuses an SMTP URL: %s", (_case, smtpUrl, expected) => {
    const error = configErrorOf(
      () => checkMailSettings({ ...GOOD, smtpUrl }),
      "POS_REPORT_SMTP_URL",
    );
    expect(error.message).toContain(expected);
  });

  it.each([
    ["missing", undefined, "POS_REPORT_FROM is not set"],
    ["two addresses", "a@example.com, b@example.com", "must be one address, got 2"],
    ["not an address", "reports", '"reports", which is not an e-mail address'],
    ["no domain", "reports@", "not an e-mail address"],
    ["a domain without a dot", "reports@localhost", "not an e-mail address"],
  ])("refuses a sender: %s", (_case, from, expected) => {
    const error = configErrorOf(() => checkMailSettings({ ...GOOD, from }), "POS_REPORT_FROM");
    expect(error.message).toContain(expected);
  });

  it.each([
    ["missing", undefined, "POS_REPORT_TO is not set"],
    ["empty", " , ", "POS_REPORT_TO is not set"],
    ["one bad among good", "a@example.com, not-an-address", '"not-an-address"'],
    ["two @", "owner@floor@example.com", "not an e-mail address"],
    ["an empty label", "owner@example..com", "not an e-mail address"],
    ["a space in the domain", "owner@exa mple.com", "not an e-mail address"],
    ["an empty list", [], "POS_REPORT_TO is not set"],
  ])("refuses recipients: %s", (_case, to, expected) => {
    const error = configErrorOf(() => checkMailSettings({ ...GOOD, to }), "POS_REPORT_TO");
    expect(error.message).toContain(expected);
  });

  it.each([
    [
      "two addresses without a comma",
      "boss@example.com ops@example.com",
      '"boss@example.com ops@example.com", which is not an e-mail address',
    ],
    [
      "a word after a bracketed address",
      "a@b.com, <c@d.com> x@y.com",
      '"<c@d.com> x@y.com", which is not an e-mail address',
    ],
    [
      "a line break starting a header",
      "boss@example.com\r\nBcc: evil@x.com",
      '"boss@example.com\\r\\nBcc: evil@x.com", which holds a control character',
    ],
    [
      "a line break at its end",
      "a@example.com, b@example.com\n",
      '"b@example.com\\n", which holds a control character',
    ],
    [
      "a name that is another address",
      '"boss@example.com" <evil@x.com>',
      "whose name is another e-mail address",
    ],
    [
      "an unquoted name that is an address",
      "boss@example.com <evil@x.com>",
      "whose name is another e-mail address",
    ],
    ["an @ in an unquoted name", "Boss @ HQ <b@example.com>", '"Boss @ HQ <b@example.com>", which'],
    ["a word between a quoted name and its address", '"B" HQ <b@example.com>', "not an e-mail"],
    ["a quote left open", '"Dubois, Inès <ines@example.fr>', "not an e-mail address"],
    ["a bidirectional override in a name", "Boss\u202e <b@example.com>", '"Boss\\u202e <b'],
  ])("refuses, naming it, a recipient list with %s", (_case, to, expected) => {
    const error = configErrorOf(() => checkMailSettings({ ...GOOD, to }), "POS_REPORT_TO");
    expect(error.message).toContain(expected);
  });

  it.each([
    ["bare", "owner@example.com", ["owner@example.com"]],
    ["named", "Owner Name <owner@example.com>", ['"Owner Name" <owner@example.com>']],
    [
      "quoted with a comma",
      '"Dubois, Inès" <ines@example.fr>',
      ['"Dubois, Inès" <ines@example.fr>'],
    ],
    [
      "quoted with an escaped quote",
      '"The \\"Boss\\"" <b@example.com>',
      ['"The \\"Boss\\"" <b@example.com>'],
    ],
    ["a bracketed address alone", "<owner@example.com>", ["owner@example.com"]],
    [
      "a name that is its own address",
      '"o@example.com" <o@example.com>',
      ['"o@example.com" <o@example.com>'],
    ],
    [
      "unicode",
      "Zoë <zoë@exämple.de>, 山田 <yamada@例え.jp>",
      ['"Zoë" <zoë@exämple.de>', '"山田" <yamada@例え.jp>'],
    ],
    [
      "several, with empty elements skipped",
      'a@example.com,,  "Dubois, Inès"<ines@example.fr> , Boss <b@example.com>,',
      ["a@example.com", '"Dubois, Inès" <ines@example.fr>', '"Boss" <b@example.com>'],
    ],
  ])("reads recipients: %s", (_case, to, expected) => {
    expect(checkMailSettings({ ...GOOD, to }).to).toEqual(expected);
  });

  it("reads the sender by the same rule, and refuses one followed by a stray word", () => {
    expect(checkMailSettings({ ...GOOD, from: '"Reports, Paris" <r@example.com>' }).from).toBe(
      '"Reports, Paris" <r@example.com>',
    );
    const error = configErrorOf(
      () => checkMailSettings({ ...GOOD, from: "r@example.com boss@example.com" }),
      "POS_REPORT_FROM",
    );
    expect(error.message).toContain('"r@example.com boss@example.com", which is not an e-mail');
  });

  /** A folder of its own for the test's files, removed after it. */
  function tempFolder(): string {
    const folder = mkdtempSync(join(tmpdir(), "pos-sync-smtp-ca-"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    return folder;
  }

  it("reads POS_REPORT_SMTP_CA's certificates, every one of a bundle", () => {
    const bundle = join(tempFolder(), "bundle.pem");
    writeFileSync(bundle, `# the relay's\n${SELF_SIGNED.cert}\n${SELF_SIGNED.cert}`);
    const certificates = readSmtpCa(bundle, "POS_REPORT_SMTP_CA");
    expect(certificates.match(/-----BEGIN CERTIFICATE-----/g)).toHaveLength(2);
    expect(certificates).not.toContain("the relay's");
  });

  it.each([
    ["no file", () => join(tempFolder(), "missing.pem"), "names no file"],
    ["a folder", () => tempFolder(), "names a folder"],
    ["a private key", () => file("key.pem", SELF_SIGNED.key), "no certificate in it"],
    ["an empty file", () => file("empty.pem", ""), "no certificate in it"],
    [
      "a damaged certificate",
      () =>
        file(
          "damaged.pem",
          SELF_SIGNED.cert
            .split("\n")
            .filter((_line, index) => index < 2 || index > 4)
            .join("\n"),
        ),
      "certificate 1 is damaged",
    ],
  ])("refuses a POS_REPORT_SMTP_CA naming %s, in one line", (_case, path, expected) => {
    const error = configErrorOf(
      () => readSmtpCa(path(), "POS_REPORT_SMTP_CA"),
      "POS_REPORT_SMTP_CA",
    );
    expect(error.message).toContain(expected);
    expect(error.message).toContain("expected a PEM file");
  });

  function file(name: string, content: string): string {
    const path = join(tempFolder(), name);
    writeFileSync(path, content);
    return path;
  }

  it("reads POS_REPORT_SMTP_CA at start: the mail settings carry its certificate, and a bad one stops the command (exit 2)", () => {
    const env = {
      POS_REPORT_SMTP_URL: "smtp://mail.example:587",
      POS_REPORT_FROM: "reports@example.com",
      POS_REPORT_TO: "owner@example.com",
    };
    const good = file("relay.pem", SELF_SIGNED.cert);
    const config = loadConfig({ env: { ...env, POS_REPORT_SMTP_CA: good }, needsApi: false });
    expect(config.messages.mail?.ca).toBe(SELF_SIGNED.cert.trim());
    expect(loadConfig({ env, needsApi: false }).messages.mail?.ca).toBeUndefined();

    const missing = join(tempFolder(), "gone.pem");
    const error = configErrorOf(
      () => loadConfig({ env: { ...env, POS_REPORT_SMTP_CA: missing }, needsApi: false }),
      "POS_REPORT_SMTP_CA",
    );
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(missing);
    // Alone, it asks for the rest of the e-mail settings.
    configErrorOf(
      () => loadConfig({ env: { POS_REPORT_SMTP_CA: good }, needsApi: false }),
      "POS_REPORT_SMTP_URL is not set",
    );
  });

  it("accepts a webhook URL over http or https", () => {
    expect(checkWebhookUrl(" https://hooks.example.com/services/T/B/x ")).toBe(
      "https://hooks.example.com/services/T/B/x",
    );
    expect(checkWebhookUrl("http://127.0.0.1:8080/hook")).toBe("http://127.0.0.1:8080/hook");
    // Credentials go over TLS, or to this machine, where they cross no network.
    for (const url of [
      `https://hook-user:${PASSWORD}@hooks.example.com/x`,
      `http://hook-user:${PASSWORD}@127.0.0.1:8080/hook`,
      `http://hook-user:${PASSWORD}@[::1]:8080/hook`,
      `http://hook-user:${PASSWORD}@localhost:8080/hook`,
    ])
      expect(checkWebhookUrl(url)).toBe(url);
  });

  it.each([
    ["missing", undefined, "is not set"],
    ["unparseable", `hooks.example.com/${PASSWORD}`, "is not a valid address"],
    ["another scheme", `ftp://u:${PASSWORD}@hooks.example.com/x`, "must start with https://"],
    ["no host", `file:///${PASSWORD}`, "must start with https://"],
    [
      "credentials in clear to another machine",
      `http://hook-user:${PASSWORD}@hooks.example.com/x`,
      "holds credentials for http://hooks.example.com/…, which would cross the network in clear: use https://",
    ],
  ])("refuses a webhook URL: %s", (_case, url, expected) => {
    const error = configErrorOf(() => checkWebhookUrl(url), "POS_REPORT_WEBHOOK_URL");
    expect(error.message).toContain(expected);
  });
});
