/**
 * The SQLite daemon's status page, rendered on a thread of its own. better-sqlite3 reads
 * synchronously, and the daemon's main thread is where a run's writes land (the sync's thread
 * sends them there): counting a chain's rows and windows there would hold the writer up for as
 * long. On another thread, with a read-only connection of its own (WAL: readers and the writer
 * never wait for each other), the page costs the run nothing.
 */
import { Worker } from "node:worker_threads";

export interface PageWorkerData {
  dbPath: string;
  schedule: string;
  /** ISO instant: the page's "now". */
  now: string;
  refreshSeconds: number;
}

export type PageWorkerAnswer = { type: "page"; html: string } | { type: "failed"; message: string };

/** Enough for a chain's calendars and a page of a few MB. */
const PAGE_WORKER_HEAP_MB = 128;

export function renderPageInWorker(data: PageWorkerData): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./page-worker.js", import.meta.url), {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: PAGE_WORKER_HEAP_MB },
      stdout: false,
      stderr: false,
    });
    let answered = false;
    worker.once("message", (answer: PageWorkerAnswer) => {
      answered = true;
      if (answer.type === "page") resolve(answer.html);
      else reject(new Error(answer.message));
      void worker.terminate();
    });
    worker.once("error", (error) => {
      if (!answered) reject(error);
    });
    worker.once("exit", (code) => {
      if (!answered)
        reject(new Error(`the status page's thread ended (code ${code}) without a page`));
    });
  });
}
