/**
 * The CPU work of a thread that also waits on the network: the sync's reading thread parses,
 * validates, normalizes and compresses pages between its requests.
 *
 * Slices: work that holds the event loop for a whole page (10-20 ms) leaves every reply that
 * arrives meanwhile waiting, and its request slot with it (the next request goes out only once
 * the reply is taken in). So the page loops give the event loop a turn once their slice has run
 * SLICE_MS: at 100 ms of latency a request took 122 ms on average without slices, 105 with them.
 *
 * The lane: with slices alone, the pages whose replies arrive meanwhile start their own work
 * between the slices of the first, and every page lives as long as several: long enough to
 * outlive the young generation, be promoted and cost a mark-compact later (the reading thread
 * promoted 200 MB in a backfill against 95). So a page's work takes turns in one lane: one page
 * at a time, and a page further along (its body parsed, its records validated) goes before one
 * that has yet to start.
 *
 * One lane per thread: the thread that runs a sync makes it and hands it to whoever works there
 * (the transport and, through it, the client's walks and checks; the page normalizer and its
 * compressor), rather than each reaching for a module-wide one.
 */
import { setImmediate as afterIo } from "node:timers/promises";

/** How long a loop works before it lets the event loop run. */
const SLICE_MS = 1;

/** How far along a page's work is: a step that comes later goes first. */
export const PAGE_STEP = { parse: 0, validate: 1, rows: 2 } as const;
export type PageStep = (typeof PAGE_STEP)[keyof typeof PAGE_STEP];

export class CpuLane {
  private sliceStartedAt = performance.now();
  /** Who waits for the lane, by step. */
  private readonly waiting: (() => void)[][] = [[], [], []];
  private taken = false;

  /** Whether the current slice of work has run its time. */
  sliceOver(): boolean {
    return performance.now() - this.sliceStartedAt >= SLICE_MS;
  }

  /** Lets the event loop run what waits (replies, timers, messages), then starts a new slice. */
  async nextSlice(): Promise<void> {
    await afterIo();
    this.sliceStartedAt = performance.now();
  }

  /** Runs `work` in the lane, when no other page's work is in it. */
  async turn<T>(step: PageStep, work: () => T | Promise<T>): Promise<T> {
    if (this.taken) await new Promise<void>((resolve) => this.waiting[step]?.push(resolve));
    this.taken = true;
    this.sliceStartedAt = performance.now();
    try {
      return await work();
    } finally {
      // Handed on once the event loop has run: the page that leaves the lane asks for its next
      // step within the microtasks that follow, and goes before a page that has not started.
      setImmediate(() => this.handOn());
    }
  }

  private handOn(): void {
    for (let step = this.waiting.length - 1; step >= 0; step--) {
      const next = this.waiting[step]?.shift();
      if (next) {
        next();
        return;
      }
    }
    this.taken = false;
  }
}
