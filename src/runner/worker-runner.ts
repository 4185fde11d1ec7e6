/**
 * Runs a sync in its worker thread (sync-worker.ts), while this thread writes its database. The
 * database work, more than half of a backfill's CPU, runs here (remote-destination.ts) beside the
 * reading in the worker: a thread that was idle, rather than a new one with a heap of its own.
 */

import { MessageChannel } from "node:worker_threads";
import { SETTINGS } from "../config/settings.js";
import type { HeldDatabase } from "../db/database.js";
import type { RunResult } from "../sync/run-result.js";
import { methodsOf, serveDestination } from "./remote-destination.js";
import { SyncWorker, SyncWorkerError, type SyncWorkerRun } from "./sync-worker.js";

/** A run on its thread, as the thread takes it (SyncWorkerRun), with where its writes go. */
export interface WorkerRunOptions extends Omit<SyncWorkerRun, "writes"> {
  /** The database the run writes through: the command's, which holds the writer lease (its
   * heartbeat then commits with the run's writes instead of waiting for their lock). Absent where
   * the worker thread writes the database itself (db/database.ts). */
  held?: HeldDatabase;
  /** The thread, started ahead of the run; one is started now otherwise. */
  worker?: SyncWorker;
  heapMb?: number;
}

/** Runs the sync in a worker that writes through `options.held`, in this thread, or to the
 * database itself when none is held. */
export async function runSyncInWorker(options: WorkerRunOptions): Promise<RunResult> {
  const worker = options.worker ?? SyncWorker.start(options.heapMb ?? SETTINGS.memoryMb.default);
  if (!options.held) return worker.run(options);
  const destination = options.held.destinationForRun({
    keepRaw: options.input.scope.config.keepRaw,
    keepHistory: options.input.scope.config.keepHistory,
    compressAhead: true,
  });
  const { port1, port2 } = new MessageChannel();
  const service = serveDestination(port1, destination, () => destination.commit());
  const shape = { where: options.held.where, methods: methodsOf(destination) };
  try {
    return await worker.run({ ...options, writes: { port: port2, shape } });
  } catch (error) {
    // The thread ended before its run did (out of memory): the run is recorded as what ended
    // it, rather than left running for a later run to call interrupted.
    if (error instanceof SyncWorkerError) {
      await service.close().catch(() => {});
      await destination.failUnfinishedRuns(error.message, new Date().toISOString());
    }
    throw error;
  } finally {
    // The run commits before it answers; this commits the pages it wrote when the worker died
    // first. A failure here is one the run already met.
    await service.close().catch(() => {});
  }
}
