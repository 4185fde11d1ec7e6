/**
 * Compressing raw JSON on a thread of its own, so that the thread that writes SQLite does not
 * spend ~50 µs an order in zlib (a third of a page's write time) while the second core idles.
 * The database thread hands over a page's JSON in one message and gets the payloads back in one;
 * its own share is the copy of the strings (~5 µs an order, measured on 5,000 orders).
 *
 * The thread's code is a few lines of plain JavaScript given to the Worker as text: that runs the
 * same from the TypeScript sources (tests) and from dist/, where a module file would need a
 * loader in one of the two. It uses the same zlib call as codec.ts (compressRaw), so a payload
 * made here reads back with decompressRaw.
 */
import { Worker } from "node:worker_threads";
import { COMPRESSION_LEVEL } from "./codec.js";

const THREAD_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { deflateRawSync } = require("node:zlib");
const dictionaries = new Map();
parentPort.on("message", ({ job, dictionaryId, dictionary, documents, level }) => {
  try {
    if (dictionary) dictionaries.set(dictionaryId, Buffer.from(dictionary));
    const options = { level, dictionary: dictionaries.get(dictionaryId) };
    // zlib hands back a view of a 16 KB buffer: copied to its own bytes, a payload of 500 bytes
    // travels (moved, not cloned) as 500 bytes rather than 16 KB.
    const payloads = documents.map((text) => new Uint8Array(deflateRawSync(text, options)));
    parentPort.postMessage({ job, payloads }, payloads.map((payload) => payload.buffer));
  } catch (error) {
    parentPort.postMessage({ job, error: String(error && error.message ? error.message : error) });
  }
});
`;

/** The thread holds a page of JSON at a time: a small heap keeps its memory small (measured:
 * without limits, a sync's peak RSS grew by about 30 MB with the thread). */
const THREAD_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

interface Reply {
  job: number;
  payloads?: Uint8Array[];
  error?: string;
}

interface Waiting {
  worker: Worker;
  resolve: (payloads: Buffer[]) => void;
  reject: (error: Error) => void;
}

/** A dictionary as the archive stores it: its row id and its bytes. */
export interface CompressionDictionary {
  id: number;
  bytes: Buffer;
}

/**
 * One compression thread, started on first use. A failure of the thread fails the pages waiting
 * on it (their writer then compresses them itself); the next page starts a new thread.
 */
export class CompressionThread {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private readonly dictionariesSent = new Set<number>();
  private nextJob = 1;

  /** The payloads of these documents, in their order, deflated with the dictionary. */
  compress(dictionary: CompressionDictionary, documents: readonly string[]): Promise<Buffer[]> {
    if (documents.length === 0) return Promise.resolve([]);
    const worker = this.started();
    const job = this.nextJob++;
    const firstUse = !this.dictionariesSent.has(dictionary.id);
    this.dictionariesSent.add(dictionary.id);
    return new Promise<Buffer[]>((resolve, reject) => {
      this.waiting.set(job, { worker, resolve, reject });
      worker.postMessage({
        job,
        dictionaryId: dictionary.id,
        dictionary: firstUse ? dictionary.bytes : undefined,
        documents,
        level: COMPRESSION_LEVEL,
      });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_SOURCE, { eval: true, resourceLimits: THREAD_HEAP });
    // Never what keeps a finished process alive.
    worker.unref();
    worker.on("message", (reply: Reply) => this.settle(reply));
    worker.on("error", (error) => this.fail(worker, error));
    worker.on("exit", (code) =>
      this.fail(worker, new Error(`compression thread exited (${code})`)),
    );
    this.worker = worker;
    this.dictionariesSent.clear();
    return worker;
  }

  private settle(reply: Reply): void {
    const waiting = this.waiting.get(reply.job);
    if (!waiting) return;
    this.waiting.delete(reply.job);
    if (reply.error !== undefined || !reply.payloads) {
      waiting.reject(new Error(`compression failed: ${reply.error ?? "no payloads"}`));
      return;
    }
    // Structured cloning turns each Buffer into a Uint8Array: viewed as a Buffer again, not copied.
    waiting.resolve(
      reply.payloads.map((bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
    );
  }

  private fail(worker: Worker, error: Error): void {
    if (this.worker === worker) this.worker = undefined;
    for (const [job, waiting] of this.waiting) {
      if (waiting.worker !== worker) continue;
      this.waiting.delete(job);
      waiting.reject(error);
    }
  }
}
