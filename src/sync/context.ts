/** What every part of a run shares. */
import type { LimitFunction } from "p-limit";
import type { SyncDestination } from "../db/destination.js";
import type { Logger } from "../log.js";
import type { CatalogListDescription, DayStreamDescription } from "../streams/index.js";
import type { Stream } from "../vocabulary.js";
import type { PageNormalizer } from "./normalize-page.js";
import type { Progress } from "./progress.js";
import type { RunScope } from "./run-scope.js";
import type { RunStats } from "./stats.js";

export interface SyncContext {
  /** What the run was asked to do. */
  scope: RunScope;
  /** Where the run writes, and reads its checkpoints from. */
  destination: SyncDestination;
  /** Normalizes the pages of day windows and has the destination store them. */
  pages: PageNormalizer;
  stats: RunStats;
  logger: Logger;
  progress: Progress;
  runId: number;
  /** The scope's streams, all of them when it names none. */
  streams: ReadonlySet<Stream>;
  /** The day streams and catalog lists a run reads when their stream is selected. */
  dayStreams: readonly DayStreamDescription[];
  catalogLists: readonly CatalogListDescription[];
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
