/**
 * Starting a run, as `sync`, `demo` and the daemon all do: the writer lease that keeps a second
 * writer out, and the worker thread that runs the sync with the configuration's heap ceiling.
 */
import type { AttemptEvent } from "../api/transport.js";
import type { Db } from "../db/sqlite/open.js";
import { WriterLease } from "../db/sqlite/writer-lease.js";
import type { Logger, LogLevel } from "../log.js";
import type { Progress } from "../sync/progress.js";
import type { RunPlan } from "../sync/run-plan.js";
import type { RunResult } from "../sync/run-result.js";
import type { SyncWorker } from "./sync-worker.js";
import { runSyncInWorker } from "./worker-runner.js";

/**
 * Takes the database's writer lease for a command. Should another process take it over after
 * all (this one stalled past its time-to-live), the work stops: two writers must never overlap.
 */
export function acquireWriterLease(
  db: Db,
  options: { command: string; logger: Logger; stop: AbortController; onLost?: () => void },
): WriterLease {
  return WriterLease.acquire(db, {
    command: options.command,
    onLost: () => {
      options.onLost?.();
      options.logger.error("another process took over the database's writer lease; stopping");
      options.stop.abort();
    },
  });
}

/** A run's plan, and what the command runs it with. */
export interface RunRequest {
  plan: RunPlan;
  /** The connection that holds the writer lease: the run writes through it, from this thread.
   * Absent for PostgreSQL (the run's thread connects to the server). */
  db?: Db;
  logLevel: LogLevel;
  /** A command logs to standard error; a service to standard output, for its supervisor. */
  logTo: "stderr" | "stdout";
  /** A display in this thread; without one, the run logs its progress itself. */
  progress?: Progress;
  /** Told about every HTTP attempt of the run (metrics). */
  onAttempt?: (event: AttemptEvent) => void;
  /** Stops the run: the page in hand is committed. */
  signal: AbortSignal;
  /** The share of the waits the run waits (clock/waits.ts). */
  waitScale: number;
  /** The run's thread, started ahead of it (it loads its modules meanwhile). */
  worker?: SyncWorker;
}

/** Runs one sync in a worker thread, with the heap ceiling of the configuration; its writes are
 * made here, through `request.db`. */
export function startRun(request: RunRequest): Promise<RunResult> {
  const { plan } = request;
  return runSyncInWorker({
    input: {
      plan,
      logLevel: request.logLevel,
      logFd: request.logTo === "stdout" ? 1 : 2,
      progress: request.progress ? "report" : "log",
      reportAttempts: request.onAttempt !== undefined,
      waitScale: request.waitScale,
    },
    ...(request.db ? { db: request.db } : {}),
    ...(request.worker ? { worker: request.worker } : {}),
    heapMb: plan.config.memoryMb,
    signal: request.signal,
    ...(request.progress ? { progress: request.progress } : {}),
    ...(request.onAttempt ? { onAttempt: request.onAttempt } : {}),
  });
}
