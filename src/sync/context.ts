/** What every part of a run shares. */
import type { LimitFunction } from "p-limit";
import type { Db } from "../db/open.js";
import type { Store } from "../db/store.js";
import type { Logger } from "../log.js";
import type { Checkpoints } from "./checkpoints.js";
import type { DayRange } from "./plan.js";
import type { Progress } from "./progress.js";
import type { RunStats } from "./stats.js";
import type { Stream } from "./streams.js";

export interface SyncContext {
  db: Db;
  store: Store;
  checkpoints: Checkpoints;
  stats: RunStats;
  logger: Logger;
  progress: Progress;
  runId: number;
  streams: ReadonlySet<Stream>;
  lookbackDays: number;
  /** Explicit days; absent for an incremental run. */
  range: DayRange | undefined;
  /** Mark deleted whatever a complete read of a day no longer lists, however much it is. */
  acceptDeletions: boolean;
  /** POS_START_DATE, when set. */
  startDate: string | undefined;
  now: () => Date;
  /** Aborted on shutdown: no new work starts, the page in hand is committed. */
  signal: AbortSignal;
  /** Bounds the day windows read at once, across locations. */
  windowLimit: LimitFunction;
}

export function timestamp(context: SyncContext): string {
  return context.now().toISOString();
}
