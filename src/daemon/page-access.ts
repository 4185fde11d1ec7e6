/**
 * Who may see the status page: anyone who reaches the port when no token is set, else a request
 * that carries the token as a bearer header or as `?token=` (a bookmark on a phone). Compared in
 * constant time, so that response times do not tell how much of a guess was right. Without a
 * token, a page served on loopback answers only to loopback names, so that a web site cannot
 * read it through a name of its own pointed at 127.0.0.1 (DNS rebinding).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

function presentedToken(request: IncomingMessage, url: URL): string | undefined {
  const header = request.headers.authorization;
  const bearer = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return bearer ?? url.searchParams.get("token") ?? undefined;
}

export function mayReadPage(
  request: IncomingMessage,
  url: URL,
  token: string | undefined,
): boolean {
  if (token === undefined) return true;
  const presented = presentedToken(request, url);
  // Digests of equal length: timingSafeEqual refuses buffers of different lengths.
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

const LOOPBACK_BINDS = new Set(["127.0.0.1", "::1", "localhost"]);

/** The host part of a Host header: `[::1]:9464` → `[::1]`, `localhost:9464` → `localhost`. */
function hostName(header: string): string {
  const bracketed = header.match(/^(\[[^\]]*\])(:\d+)?$/);
  if (bracketed) return bracketed[1] as string;
  return header.replace(/:\d+$/, "").toLowerCase();
}

/** Whether the Host header may reach the page (see the header comment). */
export function hostAllowed(
  request: IncomingMessage,
  bindHost: string,
  token: string | undefined,
): boolean {
  // A token stops a rebinding page as well; on another address the user chose who reaches it.
  if (token !== undefined || (!LOOPBACK_BINDS.has(bindHost) && !bindHost.startsWith("127.")))
    return true;
  const host = hostName(request.headers.host ?? "");
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}
