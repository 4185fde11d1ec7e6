/**
 * The transports the messages leave by (the morning report, health alerts): their settings, how
 * an address may be shown, and how they fail. mail.ts sends e-mail through an SMTP server
 * (nodemailer), webhook.ts posts JSON (undici), settings.ts checks the settings, send.ts picks
 * the one a recorded message goes by.
 *
 * Each attempt is bounded in time, so a server that is unreachable or silent fails rather than
 * hangs the daemon; each failure is a DeliveryError that says whether the same message may go
 * through later unchanged (the outbox retries those) and, in one line, what to do. The SMTP
 * password and whatever the URLs carry as credentials (userinfo, a query string, a webhook's
 * token path) appear in no message: addresses are shown as describeSmtpUrl and
 * describeWebhookUrl give them. Nothing here retries nor records what it sent, so a failure that
 * may pass says "for now" and promises nothing: what happens next is the caller's to say (the
 * daemon's outbox keeps it waiting; `report --send` says who may try it again).
 */
import { ConfigError, EXIT, PosSyncError } from "../../errors.js";
import { visible } from "../../terminal-text.js";

export interface MailSettings {
  /** `smtp://` or `smtps://user:password@host:port`, as POS_REPORT_SMTP_URL. */
  smtpUrl: string;
  /** The sender, one address (`pos-sync <reports@example.com>` or the bare address). */
  from: string;
  to: readonly string[];
  /** Certificates (PEM) to trust for the mail server instead of the public CAs, as read from
   * POS_REPORT_SMTP_CA's file at start (smtp-ca.ts). */
  ca?: string;
}

/** Where the daemon's messages and `report --send` go: e-mail, a webhook, either or both. */
export interface Channels {
  mail: MailSettings | undefined;
  webhookUrl: string | undefined;
}

export interface OutgoingMail {
  subject: string;
  text: string;
  html: string;
  /** The same for every attempt of one message, so that a mail client shows a message sent
   * twice (a process stopped between the server's acceptance and its record) once. */
  messageId?: string;
}

export interface DeliveryOptions {
  /** A webhook: the longest one delivery may take, connecting included. E-mail: the longest
   * wait for each step (connecting, the greeting, the TLS handshake, each reply), as a slow
   * server is slow at every one of them and a whole message takes many. */
  timeoutMs?: number;
  /** A webhook's Idempotency-Key header: the same on every attempt of one message. */
  idempotencyKey?: string;
}

export type DeliveryChannel = "e-mail" | "webhook";

/** Long enough for a slow mail relay's greeting or a chat service under load, short enough that
 * a daemon waiting on a dead server notices within its schedule. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;

/** The last resort bound on one e-mail, whose steps are each bounded by the timeout: a server
 * that answers each in time, a byte at a time, still ends. The outbox's claim on a message
 * outlasts it, so that no other process sends a message still being sent. */
export const LONGEST_DELIVERY_MS = 5 * 60_000;

/** A server's reply shown in a message is cut to this: one line, not a page. */
export const LONGEST_REPLY_SHOWN = 160;

/** A message that could not be delivered. `retryable`: the same message may go through later
 * without the user changing anything (a server down, slow or busy); otherwise a setting, an
 * address or the credentials must change first. */
export class DeliveryError extends PosSyncError {
  /** The report was made; only its delivery failed. */
  readonly exitCode = EXIT.incomplete;

  constructor(
    readonly channel: DeliveryChannel,
    readonly retryable: boolean,
    /** Where it went, as describeSmtpUrl or describeWebhookUrl show it. */
    readonly target: string,
    what: string,
  ) {
    // No `cause`: a library's error may carry the server's whole reply or the request's
    // options, and a cause is printed with the error at LOG_LEVEL=debug.
    super(`${channel}: ${what}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Addresses, as they may be shown

/** nodemailer's: submission (587, STARTTLS) for smtp://, implicit TLS (465) for smtps://. */
function defaultSmtpPort(secure: boolean): number {
  return secure ? 465 : 587;
}

/** "mail.example.com:587": where the mail goes, without the user or password. */
export function describeSmtpUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || defaultSmtpPort(parsed.protocol === "smtps:")}`;
  } catch {
    return "(unreadable address)";
  }
}

/**
 * "https://hooks.example.com/…": the scheme and host, the path only as "/…". A webhook's path
 * is often its token (a chat service's incoming-webhook URL is the credential itself), and the
 * query string and userinfo may be credentials too: none of them is shown.
 */
export function describeWebhookUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname === "/" || parsed.pathname === "" ? "" : "/…";
    return `${parsed.protocol}//${parsed.host}${path}`;
  } catch {
    return "(unreadable address)";
  }
}

// ---------------------------------------------------------------------------------------------
// The mail server an SMTP URL names

export interface SmtpServer {
  host: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
}

export const SMTP_URL_FORM = "smtp://user:password@host:port or smtps://user:password@host:port";

/** Never echoes the URL: it may hold the password. */
export function parseSmtpUrl(url: string): SmtpServer {
  const refuse = (why: string) => new ConfigError(`POS_REPORT_SMTP_URL ${why}`);
  const shown = describeSmtpUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw refuse(
      `is not a valid address: expected ${SMTP_URL_FORM} (percent-encode @, : and / in the password)`,
    );
  }
  const secure = parsed.protocol === "smtps:";
  if (!secure && parsed.protocol !== "smtp:") {
    throw refuse(
      `must start with smtp:// or smtps://, got ${visible(parsed.protocol)}//: expected ${SMTP_URL_FORM}`,
    );
  }
  if (parsed.hostname === "") throw refuse(`names no server: expected ${SMTP_URL_FORM}`);
  // nodemailer reads options from a query string when given the URL; pos-sync builds the
  // options itself, so one would be silently ignored.
  if (parsed.search !== "") throw refuse(`takes no options after "?" (${shown}): remove them`);
  let user: string;
  let pass: string;
  try {
    user = decodeURIComponent(parsed.username);
    pass = decodeURIComponent(parsed.password);
  } catch {
    throw refuse(`has a malformed %-escape in its user or password (${shown})`);
  }
  if (user === "" && pass !== "") {
    throw refuse(`has a password but no user (${shown}): expected ${SMTP_URL_FORM}`);
  }
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: Number(parsed.port) || defaultSmtpPort(secure),
    secure,
    ...(user === "" ? {} : { auth: { user, pass } }),
  };
}
