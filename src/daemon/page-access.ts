/**
 * Who may see the status page: anyone who reaches the port when no token is set, else a request
 * that carries the token as a bearer header or as `?token=` (a bookmark on a phone). Compared in
 * constant time, so that response times do not tell how much of a guess was right.
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
