/** Whether a host is this machine: what goes to it crosses no network. One rule for every address
 * pos-sync judges so: the status page's bind address (daemon/page-access.ts), a mail relay
 * (messages/transports/mail-tls.ts), a webhook given credentials over http
 * (config/channel-settings.ts). */
import { isIP } from "node:net";

/** `127.0.0.0/8`, `::1` (bracketed or not, or as `::ffff:127.x.y.z`), `localhost` and its
 * subdomains, which resolvers keep on this machine. */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/^::ffff:/, "");
  if (name === "localhost" || name.endsWith(".localhost") || name === "::1") return true;
  return isIP(name) === 4 && name.startsWith("127.");
}
