/**
 * Who may see the status page (sales figures). With a token set: a request that carries it as a
 * bearer header or as `?token=` (a bookmark on a phone), compared in constant time, so that
 * response times do not tell how much of a guess was right. Without one: only this machine. A
 * daemon bound to another address then refuses the page to everyone, since it cannot tell a
 * neighbour from the user; one on loopback answers only to loopback names, so that a web site
 * cannot read it through a name of its own pointed at 127.0.0.1 (DNS rebinding).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isLoopbackHost } from "../loopback.js";

/** granted; unauthorized: the token is missing or wrong; closed: no token is set and the port
 * is reachable from elsewhere; misdirected: a loopback page asked for by another name. */
export type PageAccess = "granted" | "unauthorized" | "closed" | "misdirected";

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

function presentedToken(request: IncomingMessage, url: URL): string | undefined {
  const header = request.headers.authorization;
  const bearer = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return bearer ?? url.searchParams.get("token") ?? undefined;
}

function carriesToken(request: IncomingMessage, url: URL, token: string): boolean {
  const presented = presentedToken(request, url);
  // Digests of equal length: timingSafeEqual refuses buffers of different lengths.
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/** Whether the page is closed to everyone: without a token, a daemon reachable from elsewhere
 * would show the sales figures to whoever finds the port. */
export function pageClosed(bindHost: string, token: string | undefined): boolean {
  return token === undefined && !isLoopbackHost(bindHost);
}

/** The host part of a Host header: `[::1]:9464` → `[::1]`, `localhost:9464` → `localhost`. */
function hostName(header: string): string {
  const bracketed = header.match(/^(\[[^\]]*\])(:\d+)?$/);
  if (bracketed) return bracketed[1] as string;
  return header.replace(/:\d+$/, "").toLowerCase();
}

function namesLoopback(request: IncomingMessage): boolean {
  return isLoopbackHost(hostName(request.headers.host ?? ""));
}

/** Whether a request may read the page (see the header comment). */
export function pageAccess(
  request: IncomingMessage,
  url: URL,
  bindHost: string,
  token: string | undefined,
): PageAccess {
  // A token stops a rebinding page as well: the other site cannot know it.
  if (token !== undefined) return carriesToken(request, url, token) ? "granted" : "unauthorized";
  if (pageClosed(bindHost, token)) return "closed";
  return namesLoopback(request) ? "granted" : "misdirected";
}
