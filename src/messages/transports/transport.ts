/**
 * The transports the messages leave by (the morning report, health alerts), and how they fail.
 * mail.ts sends e-mail through an SMTP server (nodemailer), webhook.ts posts JSON (undici),
 * send.ts picks the one a recorded message goes by; their settings are read and checked with the
 * rest (config/channel-settings.ts, config/channel-addresses.ts).
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
import { EXIT, PosSyncError } from "../../errors.js";

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
