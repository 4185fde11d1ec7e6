/**
 * CPU work in slices, for a thread that also waits on the network: the sync's reading thread
 * parses, validates, normalizes and compresses pages between its requests. Work that holds the
 * event loop for a whole page (10-20 ms) leaves every reply that arrives meanwhile waiting, and
 * its request slot with it: the next request goes out only once the reply is taken in. So the
 * page loops give the event loop a turn once their slice has run SLICE_MS, and a reply is taken
 * in within about a millisecond of its arrival. Measured on a 180-day backfill at 100 ms of
 * latency, concurrency 4: requests took 122 ms on average without slices, and the run 1.3 x the
 * network bound (docs/benchmarks.md).
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
