/**
 * A rate limit of so many requests per key per minute, in fixed windows, announced the way many
 * APIs do: X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (seconds until the
 * window resets) on every answer, and a 429 with Retry-After once the window is spent.
 */

const WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export class RateWindows {
  private readonly windows = new Map<string, { startedAt: number; used: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one request of `key` against `limit` per minute. */
  take(key: string, limit: number): RateDecision {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= WINDOW_MS) {
      window = { startedAt: now, used: 0 };
      this.windows.set(key, window);
    }
    const allowed = window.used < limit;
    if (allowed) window.used++;
    const resetSeconds = Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - now) / 1000));
    const headers: Record<string, string> = {
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": String(Math.max(0, limit - window.used)),
      "x-ratelimit-reset": String(resetSeconds),
    };
    if (!allowed) headers["retry-after"] = String(resetSeconds);
    return { allowed, headers };
  }
}
