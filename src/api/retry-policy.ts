/**
 * Which failures are worth retrying: the one table of pos-sync. A status or a network error code
 * maps to an outcome here, and the transport turns the outcome into a typed error.
 */

export type StatusOutcome =
  | "ok"
  | "redirect"
  | "retry"
  | "rate-limited"
  | "key-rejected"
  | "not-found"
  | "fatal";

/**
 * | status            | outcome       | why                                              |
 * |-------------------|---------------|--------------------------------------------------|
 * | 2xx               | ok            |                                                  |
 * | 3xx               | redirect      | not followed: the user should point POS_API_URL   |
 * |                   |               | at the new address (following would send the key |
 * |                   |               | wherever a server says)                          |
 * | 401, 403          | key-rejected  | the key is wrong or revoked: stop, exit code 3   |
 * | 404               | not-found     | the caller decides (missing record, unshown path, |
 * |                   |               | past the last page)                              |
 * | 408               | retry         | the server timed out waiting for us              |
 * | 429               | rate-limited  | retry after Retry-After; slow down everyone      |
 * | other 4xx         | fatal         | the request itself is wrong                      |
 * | 5xx               | retry         | the server failed this time                      |
 */
export function statusOutcome(status: number): StatusOutcome {
  if (status >= 200 && status < 300) return "ok";
  if (status >= 300 && status < 400) return "redirect";
  if (status === 401 || status === 403) return "key-rejected";
  if (status === 404) return "not-found";
  if (status === 408) return "retry";
  if (status === 429) return "rate-limited";
  if (status >= 500) return "retry";
  return "fatal";
}

export interface NetworkOutcome {
  retryable: boolean;
  description: string;
  /** What the user should do about it, when it is theirs to fix. */
  hint?: string;
}

/** Network and undici error codes. A code not listed is fatal: better a clear failure than
 * retrying a bug. */
const NETWORK_OUTCOMES: Readonly<Record<string, NetworkOutcome>> = {
  ECONNREFUSED: { retryable: true, description: "connection refused" },
  ECONNRESET: { retryable: true, description: "connection reset" },
  ECONNABORTED: { retryable: true, description: "connection aborted" },
  EPIPE: { retryable: true, description: "connection broken" },
  ETIMEDOUT: { retryable: true, description: "connection timed out" },
  EHOSTUNREACH: { retryable: true, description: "host unreachable" },
  ENETUNREACH: { retryable: true, description: "network unreachable" },
  EAI_AGAIN: { retryable: true, description: "name lookup failed temporarily" },
  // The resolver says the name does not exist: a typo, which no retry will fix.
  ENOTFOUND: { retryable: false, description: "host not found", hint: "check POS_API_URL" },
  UND_ERR_SOCKET: { retryable: true, description: "connection closed by the server" },
  // The pool was closed or destroyed by pos-sync itself (shutdown): retrying cannot help.
  UND_ERR_CLOSED: { retryable: false, description: "connection pool closed" },
  UND_ERR_DESTROYED: { retryable: false, description: "connection pool closed" },
  UND_ERR_CONNECT_TIMEOUT: {
    retryable: true,
    description: "no connection within the connect timeout",
  },
  UND_ERR_HEADERS_TIMEOUT: {
    retryable: true,
    description: "no response within the headers timeout",
  },
  UND_ERR_BODY_TIMEOUT: {
    retryable: true,
    description: "response body stalled beyond the body timeout",
  },
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: { retryable: true, description: "response body cut short" },
  UND_ERR_RES_EXCEEDED_MAX_SIZE: {
    retryable: false,
    description: "response larger than the size cap",
  },
  UND_ERR_ABORTED: { retryable: false, description: "request aborted" },
  ABORT_ERR: { retryable: false, description: "request aborted" },
};

export function networkOutcome(code: string): NetworkOutcome {
  return NETWORK_OUTCOMES[code] ?? { retryable: false, description: "unexpected network error" };
}

export interface RetrySettings {
  /** Retries after the first attempt. */
  retries: number;
  minDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is cut to it: a server asking for an hour gets minutes. */
  maxRetryAfterMs: number;
  /** A Retry-After wait at least this long is announced with a warning: a run that seems stuck
   * says why. */
  longWaitMs: number;
}

export const DEFAULT_RETRY: RetrySettings = {
  retries: 6,
  minDelayMs: 250,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  longWaitMs: 5_000,
};

/** Retry-After as seconds ("120") or as an HTTP date, uncapped; undefined when absent or
 * unreadable. */
export function readRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Retry-After as a wait in milliseconds, capped at `maxMs`. */
export function parseRetryAfter(
  value: string | undefined,
  maxMs: number,
  now = Date.now(),
): number | undefined {
  const delayMs = readRetryAfter(value, now);
  return delayMs === undefined ? undefined : Math.min(delayMs, maxMs);
}
