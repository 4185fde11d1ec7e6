/**
 * The SQLite daemon's status page, rendered on a thread of its own (the database's capabilities
 * say where a page is read: db/database.ts). better-sqlite3 reads
 * synchronously, and the daemon's main thread is where a run's writes land (the sync's thread
 * sends them there): counting a chain's rows and windows there would hold the writer up for as
 * long. On another thread, with a read-only connection of its own (WAL: readers and the writer
 * never wait for each other), the page costs the run nothing.
 */
import { Worker } from "node:worker_threads";
import type { DatabaseSettings } from "../db/database.js";

export interface StatusPageRequest {
  database: DatabaseSettings;
  schedule: string;
  /** ISO instant: the page's "now". */
  now: string;
  refreshSeconds: number;
}

export type StatusPageAnswer = { type: "page"; html: string } | { type: "failed"; message: string };

/** Enough for a chain's calendars and a page of a few MB. */
const PAGE_WORKER_HEAP_MB = 128;
/** Far beyond a chain's page (about a second): a thread still reading then is stuck, and every
 * request after it would wait on it (they share one rendering). */
export const PAGE_WORKER_TIMEOUT_MS = 60_000;

export function renderStatusPageInThread(
  data: StatusPageRequest,
  timeoutMs = PAGE_WORKER_TIMEOUT_MS,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./status-page-worker.js", import.meta.url), {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: PAGE_WORKER_HEAP_MB },
      stdout: false,
      stderr: false,
    });
    let answered = false;
    const answer = (settle: () => void) => {
      if (answered) return;
      answered = true;
      clearTimeout(deadline);
      settle();
      void worker.terminate();
    };
    const deadline = setTimeout(() => {
      answer(() => reject(new Error(`the status page was not read within ${timeoutMs} ms`)));
    }, timeoutMs);
    worker.once("message", (message: StatusPageAnswer) => {
      answer(() =>
        message.type === "page" ? resolve(message.html) : reject(new Error(message.message)),
      );
    });
    worker.once("error", (error) => answer(() => reject(error)));
    worker.once("exit", (code) => {
      answer(() =>
        reject(new Error(`the status page's thread ended (code ${code}) without a page`)),
      );
    });
  });
}
