/** Which mail server's certificate pos-sync trusts, and when it insists on TLS: the TLS policy
 * mail.ts hands to nodemailer. */
import type { ConnectionOptions } from "node:tls";
import type { SmtpServer } from "../../config/channel-addresses.js";
import { isLoopbackHost } from "../../loopback.js";

/** smtp:// with a password to another machine must upgrade with STARTTLS, whatever the server
 * offers: a password is not sent in clear over a network. */
export function mustUseTls(server: SmtpServer): boolean {
  return server.auth !== undefined && !server.secure && !isLoopbackHost(server.host);
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
  if (isLoopbackHost(server.host)) return { rejectUnauthorized: false };
  return {};
}
