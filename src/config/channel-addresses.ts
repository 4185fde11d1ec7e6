/**
 * The addresses of the channels messages leave by, as the settings give them
 * (POS_REPORT_SMTP_URL, POS_REPORT_WEBHOOK_URL): read and checked at start, and shown without
 * what they may carry as credentials (the SMTP password, a webhook's token path, a query
 * string, userinfo).
 */
import { ConfigError } from "../errors.js";
import { visible } from "../terminal-text.js";

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
