/**
 * Runs a sync in a worker thread with a heap ceiling, while this thread writes its database. V8
 * otherwise lets the heap of a long backfill grow far past what it holds alive (the pages it
 * parses are garbage a moment later): measured over 100,000 orders, 280 MB resident without the
 * ceiling and 165 MB with it, at the same speed. The database work, more than half of a
 * backfill's CPU, runs here (destination-port.ts) beside the reading in the worker: a thread
 * that was idle, rather than a new one with a heap of its own.
 */
import { MessageChannel, Worker } from "node:worker_threads";
import type { AttemptEvent } from "../api/transport.js";
import { DEFAULTS } from "../config.js";
import type { Db } from "../db/open.js";
import { SqliteDestination } from "../db/sqlite-destination.js";
import { EXIT, PosSyncError } from "../errors.js";
import type { Progress } from "../sync/progress.js";
import type { RunResult } from "../sync/run.js";
import { RunStats } from "../sync/stats.js";
import { methodsOf, serveDestination } from "./destination-port.js";
import type { FromWorker, ToWorker, WorkerData, WorkerInput } from "./worker-protocol.js";

/** The reading thread's young generation (V8 keeps two halves of a third each): 12 MB held
 * 8 MB of it against 16 MB for 24, with the same speed (a page's garbage dies young either way). */
const YOUNG_GENERATION_MB = 12;
/** How long a thread that answered may take to end before it is stopped. */
const WORKER_EXIT_GRACE_MS = 5_000;

export class SyncWorkerError extends PosSyncError {
  readonly exitCode = EXIT.incomplete;
  readonly retryable = false;
}

export interface WorkerRunOptions {
  input: WorkerInput;
  /** The connection the run writes through: the command's, which holds the writer lease (its
   * heartbeat then commits with the run's writes instead of waiting for their lock). Absent for
   * PostgreSQL, which the worker thread writes to itself. */
  db?: Db;
  heapMb?: number;
  signal?: AbortSignal;
  progress?: Progress;
  onAttempt?: (event: AttemptEvent) => void;
}

/** Runs the sync in a worker that writes through `options.db`, in this thread (SQLite), or to
 * the PostgreSQL server itself. */
export async function runSyncInWorker(options: WorkerRunOptions): Promise<RunResult> {
  if (!options.db) return runWorker(options, undefined);
  const destination = new SqliteDestination(options.db, {
    keepRaw: options.input.config.keepRaw,
    keepHistory: options.input.config.keepHistory,
    compressAhead: true,
  });
  const { port1, port2 } = new MessageChannel();
  const service = serveDestination(port1, destination, () => destination.commit());
  const shape = { location: options.db.path, methods: methodsOf(destination) };
  try {
    return await runWorker(options, { port: port2, shape });
  } finally {
    // The run commits before it answers; this commits the pages it wrote when the worker died
    // first. A failure here is one the run already met.
    await service.close().catch(() => {});
  }
}

function runWorker(
  options: WorkerRunOptions,
  writes: WorkerData["writes"] | undefined,
): Promise<RunResult> {
  const heapMb = options.heapMb ?? DEFAULTS.memoryMb;
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./worker.js", import.meta.url), {
      workerData: { ...options.input, ...(writes ? { writes } : {}) } satisfies WorkerData,
      transferList: writes ? [writes.port] : [],
      resourceLimits: {
        maxOldGenerationSizeMb: heapMb,
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const stop = () => worker.postMessage({ type: "stop" } satisfies ToWorker);
    options.signal?.addEventListener("abort", stop, { once: true });
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener("abort", stop);
      options.progress?.stop();
      action();
      // The thread ends by itself once it has answered; one stuck on a failing file would keep
      // the process alive after its command is done.
      setTimeout(() => void worker.terminate(), WORKER_EXIT_GRACE_MS).unref();
    };
    worker.on("message", (message: FromWorker) => {
      switch (message.type) {
        case "planned":
          options.progress?.planned(message.event);
          break;
        case "log":
          if (options.progress?.log) options.progress.log(message.line);
          else process.stderr.write(message.line);
          break;
        case "window":
          options.progress?.windowDone(message.event);
          break;
        case "attempt":
          options.onAttempt?.(message.event);
          break;
        case "result":
          finish(() => resolve({ ...message.result, stats: RunStats.from(message.result.stats) }));
          break;
        case "failed":
          finish(() => reject(new SyncWorkerError(message.message)));
          break;
      }
    });
    worker.on("error", (error: Error & { code?: string }) => {
      const message =
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? `the sync needed more than ${heapMb} MB of heap; raise POS_MEMORY_MB`
          : `the sync stopped unexpectedly: ${error.message}`;
      finish(() => reject(new SyncWorkerError(message)));
    });
    worker.on("exit", (code) =>
      finish(() => reject(new SyncWorkerError(`the sync ended without a result (${code})`))),
    );
  });
}
