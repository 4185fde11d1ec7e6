/**
 * Starting a run, as `sync`, `demo` and the daemon all do: the worker thread that runs the sync
 * with the configuration's heap ceiling, writing through the database its command holds, if the
 * database is written from the command's thread (db/database.ts).
 */
import type { AttemptEvent } from "../api/transport.js";
import type { HeldDatabase } from "../db/database.js";
import type { LogLevel } from "../log.js";
import type { Progress } from "../sync/progress.js";
import type { RunResult } from "../sync/run-result.js";
import type { RunScope } from "../sync/run-scope.js";
import type { SyncWorker } from "./sync-worker.js";
import { runSyncInWorker } from "./worker-runner.js";

/** A run's scope, and what the command runs it with. */
export interface RunRequest {
  scope: RunScope;
  /** The database this thread holds (with its writer lease): the run writes through it, from
   * this thread. Absent where the run's thread writes the database itself. */
  held?: HeldDatabase;
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
 * made here, through `request.held`, if given. */
export function startRun(request: RunRequest): Promise<RunResult> {
  const { scope } = request;
  return runSyncInWorker({
    input: {
      scope,
      logLevel: request.logLevel,
      logFd: request.logTo === "stdout" ? 1 : 2,
      progress: request.progress ? "report" : "log",
      reportAttempts: request.onAttempt !== undefined,
      waitScale: request.waitScale,
    },
    ...(request.held ? { held: request.held } : {}),
    ...(request.worker ? { worker: request.worker } : {}),
    heapMb: scope.config.memoryMb,
    signal: request.signal,
    ...(request.progress ? { progress: request.progress } : {}),
    ...(request.onAttempt ? { onAttempt: request.onAttempt } : {}),
  });
}
