/**
 * Compressing raw JSON on a thread of its own, so that the thread that writes SQLite does not
 * spend ~50 µs an order in zlib (a third of a page's write time) while the second core idles.
 * The database thread hands over a page's JSON in one message and gets the payloads back in one;
 * its own share is the copy of the strings (~5 µs an order, measured on 5,000 orders).
 *
 * The thread's code is a few lines of plain JavaScript given to the Worker as text: that runs the
 * same from the TypeScript sources (tests) and from dist/, where a module file would need a
 * loader in one of the two. It makes the bytes codec.ts (compressRaw) makes, so a payload made
 * here reads back with decompressRaw.
 */
import { Worker } from "node:worker_threads";
import { COMPRESSION_LEVEL } from "./codec.js";

const THREAD_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { constants, createDeflateRaw, deflateRawSync } = require("node:zlib");

// One zlib stream per dictionary, reset between documents: zlib's setup (its state, the
// dictionary's hash) is then paid once rather than for every document, which halves the time of
// a 3 KB order. It drives the stream's native handle, which Node does not document: the handle
// is checked on a sample against deflateRawSync, byte for byte, and whatever does not match or
// fails falls back to deflateRawSync, which makes the same bytes.
function reusableDeflater(level, dictionary) {
  try {
    const stream = createDeflateRaw({ level, dictionary });
    const handle = stream._handle;
    const state = stream._writeState;
    if (!handle || typeof handle.writeSync !== "function" || typeof handle.reset !== "function")
      return undefined;
    if (!(state instanceof Uint32Array)) return undefined;
    let failed = false;
    stream.on("error", () => { failed = true; });
    let out = Buffer.allocUnsafe(64 * 1024);
    const deflate = (text) => {
      const input = Buffer.from(text);
      // Deflate's worst case is a little over its input (stored blocks).
      const room = input.length + (input.length >> 4) + 1024;
      if (out.length < room) out = Buffer.allocUnsafe(room);
      handle.writeSync(constants.Z_FINISH, input, 0, input.length, out, 0, out.length);
      const unusedOut = state[0];
      const unreadIn = state[1];
      handle.reset();
      if (failed || unreadIn !== 0 || unusedOut === 0) throw new Error("incomplete deflate");
      // Its own bytes: a view of the shared output area would travel as the whole area.
      return new Uint8Array(out.subarray(0, out.length - unusedOut));
    };
    const sample = JSON.stringify({ check: [1, 2.5, null], text: "abc".repeat(400) });
    const expected = deflateRawSync(sample, { level, dictionary });
    // Twice: the second also proves that the reset put the dictionary back.
    if (!Buffer.from(deflate(sample)).equals(expected)) return undefined;
    if (!Buffer.from(deflate(sample)).equals(expected)) return undefined;
    return deflate;
  } catch {
    return undefined;
  }
}

const dictionaries = new Map();
parentPort.on("message", ({ job, dictionaryId, dictionary, documents, level }) => {
  try {
    if (dictionary) {
      const bytes = Buffer.from(dictionary);
      dictionaries.set(dictionaryId, { bytes, deflate: reusableDeflater(level, bytes) });
    }
    const known = dictionaries.get(dictionaryId);
    const options = { level, dictionary: known && known.bytes };
    const oneShot = (text) => new Uint8Array(deflateRawSync(text, options));
    const deflate = known && known.deflate;
    const payloads = documents.map((text) => {
      if (!deflate) return oneShot(text);
      try {
        return deflate(text);
      } catch {
        return oneShot(text);
      }
    });
    const method = deflate ? "reused stream" : "one-shot";
    parentPort.postMessage({ job, payloads, method }, payloads.map((payload) => payload.buffer));
  } catch (error) {
    parentPort.postMessage({ job, error: String(error && error.message ? error.message : error) });
  }
});
`;

/** The thread holds a page of JSON at a time: a small heap keeps its memory small (measured:
 * without limits, a sync's peak RSS grew by about 30 MB with the thread). */
const THREAD_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

/** How the thread deflates: one zlib stream reset between documents, or one per document
 * (when this Node's zlib handle does not behave as checked). */
export type CompressionMethod = "reused stream" | "one-shot";

interface Reply {
  job: number;
  payloads?: Uint8Array[];
  method?: CompressionMethod;
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
  /** How the last page was deflated, for tests and benchmarks. */
  lastMethod: CompressionMethod | undefined;

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
    this.lastMethod = reply.method;
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
