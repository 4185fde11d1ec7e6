/**
 * What an answer's headers say about a rate limit. Servers announce it in one of a few
 * families: X-RateLimit-Limit/Remaining/Reset (the commonest), the IETF draft's
 * RateLimit-Limit/Remaining/Reset, its later single RateLimit header (`limit=100, remaining=5,
 * reset=30`, or `"default";r=5;t=30`) with RateLimit-Policy (`"default";q=100;w=60`), and
 * Retry-After on a 429 or 503.
 */
import { firstHeaderValue } from "../api/error-details.js";

export interface RateLimitHeaders {
  /** Requests allowed per window. */
  limit?: number;
  /** Requests left in the current window. */
  remaining?: number;
  /** Seconds until the window resets (a reset given as a Unix time is turned into seconds). */
  resetSeconds?: number;
  /** The policy as sent ("100;w=60"). */
  policy?: string;
  /** Retry-After as sent. */
  retryAfter?: string;
  /** The header names these came from, for the report. */
  names: string[];
}

type Headers = Record<string, string | string[] | undefined>;

function first(headers: Headers, name: string): string | undefined {
  return firstHeaderValue(headers[name]);
}

/** The first whole number of a header value: "100", "100, 100;w=60" and "100;w=60" all give 100. */
function leadingNumber(text: string | undefined): number | undefined {
  const match = text === undefined ? null : /^\s*(\d{1,12})/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** A reset given as a Unix time (some servers do) becomes the seconds left until it. */
function resetSeconds(value: number | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const nowSeconds = Math.floor(nowMs / 1000);
  return value > 1_000_000_000 ? Math.max(0, value - nowSeconds) : value;
}

/** A parameter of the single RateLimit header or its policy: `remaining=5` or `;r=5`. */
function parameter(text: string | undefined, ...names: string[]): number | undefined {
  if (text === undefined) return undefined;
  for (const name of names) {
    const match = new RegExp(`(?:^|[\\s;,])${name}=(\\d{1,12})`).exec(text);
    if (match) return Number(match[1]);
  }
  return undefined;
}

export function readRateLimitHeaders(headers: Headers, nowMs = Date.now()): RateLimitHeaders {
  const names: string[] = [];
  const pick = (...candidates: string[]) => {
    for (const name of candidates) {
      const value = first(headers, name);
      if (value !== undefined) {
        names.push(name);
        return value;
      }
    }
    return undefined;
  };
  const single = pick("ratelimit");
  const policy = pick("ratelimit-policy", "x-ratelimit-policy");
  const limit =
    leadingNumber(pick("x-ratelimit-limit", "ratelimit-limit")) ??
    parameter(single, "limit") ??
    parameter(policy, "q");
  const remaining =
    leadingNumber(pick("x-ratelimit-remaining", "ratelimit-remaining")) ??
    parameter(single, "remaining", "r");
  const reset = resetSeconds(
    leadingNumber(pick("x-ratelimit-reset", "ratelimit-reset")) ?? parameter(single, "reset", "t"),
    nowMs,
  );
  const retryAfter = pick("retry-after");
  const result: RateLimitHeaders = { names };
  if (limit !== undefined) result.limit = limit;
  if (remaining !== undefined) result.remaining = remaining;
  if (reset !== undefined) result.resetSeconds = reset;
  if (policy !== undefined) result.policy = policy;
  if (retryAfter !== undefined) result.retryAfter = retryAfter;
  return result;
}

/** Whether the headers announce a limit at all (Retry-After alone does not). */
export function announcesLimit(headers: RateLimitHeaders): boolean {
  return (
    headers.limit !== undefined || headers.remaining !== undefined || headers.policy !== undefined
  );
}
