/**
 * The worker thread that runs a sync, started ahead of its run: it loads its code (about 0.15 s)
 * while the command opens its database, then waits for the run (worker.ts). Its heap
 * has a ceiling: V8 otherwise lets the heap of a long backfill grow far past what it holds alive
 * (the pages it parses are garbage a moment later): measured over 100,000 orders, 280 MB
 * resident without the ceiling and 165 MB with it, at the same speed.
 */
import { setFlagsFromString } from "node:v8";
import { Worker } from "node:worker_threads";
import type { AttemptEvent } from "../api/transport.js";
import { EXIT, PosSyncError } from "../errors.js";
import type { Progress } from "../sync/progress.js";
import type { RunResult } from "../sync/run-result.js";
import { RunStats } from "../sync/stats.js";
import type { FromWorker, ToWorker, WorkerInput, WorkerWrites } from "./worker-protocol.js";

/** The reading thread's young generation (V8 keeps two halves of a third each): 12 MB held
 * 8 MB of it against 16 MB for 24, with the same speed (a page's garbage dies young either way). */
const YOUNG_GENERATION_MB = 12;
/**
 * V8 moves an allocation site to the old generation once most of what it allocates survives a
 * scavenge. At concurrency 16 the replies that wait for the CPU lane are such survivors, and the
 * sites that parse and validate every page then allocated straight into the old generation,
 * which only a mark-compact frees: a chain's week promoted 454-471 MB and spent 1.4 s in pauses
 * on the reading thread, against 208-216 MB and 0.9 s without (docs/benchmarks.md, part 8). The
 * flag is the process's; the thread, made after it is set, has it from its first allocation.
 */
const NO_PRETENURING = "--no-allocation-site-pretenuring";
/** How long a thread that answered may take to end before it is stopped. */
const WORKER_EXIT_GRACE_MS = 5_000;

export class SyncWorkerError extends PosSyncError {
  readonly exitCode = EXIT.incomplete;
  readonly retryable = false;
}

export interface SyncWorkerRun {
  input: WorkerInput;
  /** The port its writes go through, for a SQLite run (remote-destination.ts). */
  writes?: WorkerWrites;
  signal?: AbortSignal;
  progress?: Progress;
  onAttempt?: (event: AttemptEvent) => void;
}

export class SyncWorker {
  private used = false;
  /** What ended the thread before it answered, once it did. */
  private ended: Error | undefined;
  private onEnd: ((error: Error) => void) | undefined;

  private constructor(
    private readonly worker: Worker,
    heapMb: number,
  ) {
    worker.on("error", (error: Error & { code?: string }) =>
      this.end(
        new SyncWorkerError(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? `the sync needed more than ${heapMb} MB of heap; raise POS_MEMORY_MB`
            : `the sync stopped unexpectedly: ${error.message}`,
        ),
      ),
    );
    worker.on("exit", (code) =>
      this.end(new SyncWorkerError(`the sync ended without a result (${code})`)),
    );
  }

  /** Starts the thread, with `heapMb` of heap at most; it waits for its run. */
  static start(heapMb: number): SyncWorker {
    setFlagsFromString(NO_PRETENURING);
    const worker = new Worker(new URL("./worker.js", import.meta.url), {
      resourceLimits: {
        maxOldGenerationSizeMb: heapMb,
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      },
      stdout: false,
      stderr: false,
    });
    return new SyncWorker(worker, heapMb);
  }

  /** Ends a thread that will not run (the command failed before its run). */
  discard(): void {
    if (!this.used) void this.worker.terminate();
  }

  /** Runs the sync on the thread, once; resolves with its result. */
  run(options: SyncWorkerRun): Promise<RunResult> {
    if (this.used) throw new Error("a sync worker runs one sync");
    this.used = true;
    const { worker } = this;
    return new Promise((resolve, reject) => {
      let settled = false;
      const stop = () => worker.postMessage({ type: "stop" } satisfies ToWorker);
      options.signal?.addEventListener("abort", stop, { once: true });
      const finish = (action: () => void) => {
        if (settled) return;
        settled = true;
        options.signal?.removeEventListener("abort", stop);
        options.progress?.stop();
        action();
        // The thread ends by itself once it has answered; one stuck on a failing file would
        // keep the process alive after its command is done.
        setTimeout(() => void worker.terminate(), WORKER_EXIT_GRACE_MS).unref();
      };
      this.onEnd = (error) => finish(() => reject(error));
      if (this.ended) return this.onEnd(this.ended);
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
            finish(() =>
              resolve({ ...message.result, stats: RunStats.from(message.result.stats) }),
            );
            break;
          case "failed":
            finish(() => reject(new SyncWorkerError(message.message)));
            break;
        }
      });
      const { writes } = options;
      worker.postMessage(
        { type: "run", input: options.input, ...(writes ? { writes } : {}) } satisfies ToWorker,
        writes ? [writes.port] : [],
      );
      if (options.signal?.aborted) stop();
    });
  }

  private end(error: Error): void {
    this.ended ??= error;
    this.onEnd?.(error);
  }
}
