/** Which mail server's certificate pos-sync trusts, and when it insists on TLS: the TLS policy
 * mail.ts hands to nodemailer. */
import { isIP } from "node:net";
import type { ConnectionOptions } from "node:tls";
import type { SmtpServer } from "./delivery.js";

/** A server on this machine: what is sent to it crosses no network. */
export function isLoopback(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}

/** smtp:// with a password to another machine must upgrade with STARTTLS, whatever the server
 * offers: a password is not sent in clear over a network. */
export function mustUseTls(server: SmtpServer): boolean {
  return server.auth !== undefined && !server.secure && !isLoopback(server.host);
}

/**
 * How the server's certificate is checked. With `ca` (POS_REPORT_SMTP_CA's certificates), against
 * those alone, whatever the host: the user named what to trust. Otherwise a loopback server's is
 * not checked: nothing lies between to impersonate it, and a relay on the host (a stock Postfix)
 * offers STARTTLS with a self-signed certificate. Any other server's is checked against the
 * public CAs and the host's name, as Node does by default.
 */
export function mailTlsOptions(server: SmtpServer, ca: string | undefined): ConnectionOptions {
  if (ca !== undefined) return { ca };
  if (isLoopback(server.host)) return { rejectUnauthorized: false };
  return {};
}
