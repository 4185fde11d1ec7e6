/** What every part of a run shares. */
import type { LimitFunction } from "p-limit";
import type { SyncDestination } from "../db/destination.js";
import type { Logger } from "../log.js";
import type { CatalogListDescription, DayStreamDescription } from "../streams/index.js";
import type { DayRange, RepairDays, Stream } from "../vocabulary.js";
import type { PageNormalizer } from "./normalize-page.js";
import type { Progress } from "./progress.js";
import type { RunStats } from "./stats.js";

/** How the daemon re-proves stored history (audit.ts): POS_AUDIT_PERIOD_DAYS, POS_AUDIT_REQUESTS. */
export interface AuditSettings {
  /** Every stored day is re-proved at least this often. */
  periodDays: number;
  /** Requests per location and run for the days not yet due. */
  requests: number;
}

export interface SyncContext {
  /** Where the run writes, and reads its checkpoints from. */
  destination: SyncDestination;
  /** Normalizes the pages of day windows and has the destination store them. */
  pages: PageNormalizer;
  stats: RunStats;
  logger: Logger;
  progress: Progress;
  runId: number;
  streams: ReadonlySet<Stream>;
  /** The day streams and catalog lists a run reads when their stream is selected. */
  dayStreams: readonly DayStreamDescription[];
  catalogLists: readonly CatalogListDescription[];
  lookbackDays: number;
  /** Explicit days; absent for an incremental run. */
  range: DayRange | undefined;
  /** Exactly these days of each location and stream (verify --repair); absent otherwise. */
  repairDays: RepairDays | undefined;
  /** The daemon's audit of stored history; absent for other runs. */
  audit: AuditSettings | undefined;
  /** Mark deleted whatever a complete read of a day no longer lists, however much it is. */
  acceptDeletions: boolean;
  /** POS_START_DATE, when set. */
  startDate: string | undefined;
  now: () => Date;
  /** When the run started (ISO): what it proved since needs no proving again. */
  startedAt: string;
  /** Aborted on shutdown: no new work starts, the page in hand is committed. */
  signal: AbortSignal;
  /** Bounds the day windows read at once, across locations. */
  windowLimit: LimitFunction;
}

export function timestamp(context: SyncContext): string {
  return context.now().toISOString();
}
