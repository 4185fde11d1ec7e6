/**
 * A page's raw JSON compressed where it was read (normalize-page.ts), before it crosses to
 * the thread that writes (runner/remote-destination.ts): that thread bounds a sync's wall time, and
 * a page's JSON is most of what would cross (about 3 KB an order against 0.5 KB compressed). The
 * payloads of a page share one buffer, copied across at once; the text stays behind.
 *
 * Records the writer will find unchanged are compressed too (telling them apart needs the
 * database): a re-read of unchanged days costs this thread about 25 µs an order.
 */

import type { CpuLane } from "../cpu-lane.js";
import { type Deflater, dictionaryDeflater } from "../db/raw/deflater.js";
import type { ArchiveTerms } from "../db/raw/terms.js";
import type { IncomingRecord } from "../db/rules/day-page.js";

/** Where a payload lies in its page's buffer. */
interface Span {
  offset: number;
  length: number;
}

/** A page's first guess at its payloads' total size: an order compresses to about 0.5 KB. */
const GUESSED_BYTES_PER_RECORD = 1024;

export class AheadCompressor {
  /** One deflater per lent dictionary, by serial. */
  private readonly deflaters = new Map<number, Deflater>();

  /** `lane`: the thread's CPU lane, whose slices the work is done in. */
  constructor(private readonly lane: CpuLane) {}

  /**
   * Fits a page's records to the archive's terms: no JSON when it keeps none; compressed with
   * the table's dictionary when it has one; as text otherwise (the writer learns the table's
   * dictionary from it). Returns the buffer that holds the payloads.
   */
  async prepare(records: IncomingRecord[], terms: ArchiveTerms): Promise<ArrayBuffer | undefined> {
    if (!terms.keep) {
      for (const record of records) record.raw = undefined;
      return undefined;
    }
    const { dictionary } = terms;
    if (!dictionary || records.length === 0) return undefined;
    const deflater = this.deflaterOf(dictionary.serial, dictionary.bytes);
    const area = new PageArea(records.length * GUESSED_BYTES_PER_RECORD);
    // Each text is let go of as soon as it is compressed; the work is done in slices
    // (cpu-lane.ts).
    const spans: (Span | undefined)[] = [];
    for (const record of records) {
      if (this.lane.sliceOver()) await this.lane.nextSlice();
      const { raw } = record;
      record.raw = undefined;
      spans.push(raw === undefined ? undefined : area.add(deflater.deflate(raw)));
    }
    const buffer = area.finish();
    records.forEach((record, i) => {
      const span = spans[i];
      if (!span) return;
      record.compressed = {
        dictionary: dictionary.serial,
        payload: new Uint8Array(buffer, span.offset, span.length),
      };
    });
    return buffer;
  }

  private deflaterOf(serial: number, bytes: Uint8Array): Deflater {
    let deflater = this.deflaters.get(serial);
    if (!deflater) {
      deflater = dictionaryDeflater(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      this.deflaters.set(serial, deflater);
    }
    return deflater;
  }
}

/** Payloads laid end to end in one buffer of their own (never a pooled one: a copy across threads
 * would carry the whole pool). */
class PageArea {
  private bytes: Buffer;
  private used = 0;

  constructor(guess: number) {
    this.bytes = Buffer.allocUnsafeSlow(guess);
  }

  add(payload: Uint8Array): Span {
    if (this.used + payload.length > this.bytes.length) {
      const larger = Buffer.allocUnsafeSlow(
        Math.max(2 * this.bytes.length, this.used + payload.length),
      );
      this.bytes.copy(larger, 0, 0, this.used);
      this.bytes = larger;
    }
    this.bytes.set(payload, this.used);
    const span = { offset: this.used, length: payload.length };
    this.used += payload.length;
    return span;
  }

  /** The buffer, once every payload is in. */
  finish(): ArrayBuffer {
    return this.bytes.buffer as ArrayBuffer;
  }
}
