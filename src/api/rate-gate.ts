/**
 * Slowing down for everyone when the server says "too many requests": a 429 pauses every request
 * of the transport until its Retry-After has passed and halves the requests allowed in flight;
 * a run of successes then raises the allowance again, one at a time (additive increase,
 * multiplicative decrease, as TCP does).
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { LimitFunction } from "p-limit";

const SUCCESSES_BEFORE_RAISING = 20;
const DEFAULT_PAUSE_MS = 1000;

export class RateGate {
  private pausedUntil = 0;
  private successes = 0;

  constructor(
    private readonly limit: LimitFunction,
    private readonly maxConcurrency: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves once no pause is in force (a pause may be extended while waiting). */
  async whenOpen(signal?: AbortSignal): Promise<void> {
    for (let wait = this.pausedUntil - this.now(); wait > 0; wait = this.pausedUntil - this.now()) {
      await sleep(wait, undefined, { signal });
    }
  }

  rateLimited(retryAfterMs: number | undefined): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + (retryAfterMs ?? DEFAULT_PAUSE_MS));
    this.limit.concurrency = Math.max(1, Math.floor(this.limit.concurrency / 2));
    this.successes = 0;
  }

  succeeded(): void {
    if (this.limit.concurrency >= this.maxConcurrency) return;
    this.successes++;
    if (this.successes >= SUCCESSES_BEFORE_RAISING) {
      this.limit.concurrency++;
      this.successes = 0;
    }
  }

  get concurrency(): number {
    return this.limit.concurrency;
  }
}
