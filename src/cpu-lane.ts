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
 */
import { setImmediate as afterIo } from "node:timers/promises";

/** How long a loop works before it lets the event loop run. */
const SLICE_MS = 1;

let sliceStartedAt = performance.now();

/** Whether this thread's current slice of work has run its time. */
export function sliceOver(): boolean {
  return performance.now() - sliceStartedAt >= SLICE_MS;
}

/** Lets the event loop run what waits (replies, timers, messages), then starts a new slice. */
export async function nextSlice(): Promise<void> {
  await afterIo();
  sliceStartedAt = performance.now();
}

/** How far along a page's work is: a step that comes later goes first. */
export const PAGE_STEP = { parse: 0, validate: 1, rows: 2 } as const;
type PageStep = (typeof PAGE_STEP)[keyof typeof PAGE_STEP];

/** Who waits for the lane, by step. */
const waiting: (() => void)[][] = [[], [], []];
let taken = false;

/** Runs `work` in the lane, when no other page's work is in it. */
export async function cpuTurn<T>(step: PageStep, work: () => T | Promise<T>): Promise<T> {
  if (taken) await new Promise<void>((resolve) => waiting[step]?.push(resolve));
  taken = true;
  sliceStartedAt = performance.now();
  try {
    return await work();
  } finally {
    // Handed on once the event loop has run: the page that leaves the lane asks for its next
    // step within the microtasks that follow, and goes before a page that has not started.
    setImmediate(handOn);
  }
}

function handOn(): void {
  for (let step = waiting.length - 1; step >= 0; step--) {
    const next = waiting[step]?.shift();
    if (next) {
      next();
      return;
    }
  }
  taken = false;
}
