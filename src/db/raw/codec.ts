/**
 * Raw JSON as the archive keeps it: deflated, with a preset dictionary learned from the records
 * of the same table. Small JSON documents compress poorly on their own (about 2.7 times for an
 * order); most of their bytes are field names and catalog ids that every record of a location
 * repeats, which a dictionary taken from earlier records supplies (about 6 times). Measured on
 * 5,000 simulator orders of 2.8 KB: deflate alone 1,035 bytes each, with an 8 KB dictionary
 * 410, with 16 KB 358; SQLite's JSONB 2,377 (see docs/benchmarks.md).
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";

/** Bytes of earlier records a dictionary holds: zlib uses at most 32 KB of it. */
export const DICTIONARY_BYTES = 8 * 1024;

/** Level 3: with the dictionary, an order's deflate (the stream reused, deflater.ts) takes a
 * quarter less time than at zlib's default 6, for 8 % more bytes (1.6 % of a backfill's file);
 * level 1 is no faster (docs/benchmarks.md, part 10). */
export const COMPRESSION_LEVEL = 3;

/** A preset dictionary from sample records: their JSON, newest last (zlib favours the end). */
export function buildDictionary(samples: readonly string[]): Buffer | undefined {
  const joined = Buffer.from(samples.join("\n"));
  if (joined.length < DICTIONARY_BYTES) return undefined;
  return Buffer.from(joined.subarray(joined.length - DICTIONARY_BYTES));
}

export function compressRaw(raw: string, dictionary?: Buffer): Buffer {
  return deflateRawSync(
    raw,
    dictionary ? { level: COMPRESSION_LEVEL, dictionary } : { level: COMPRESSION_LEVEL },
  );
}

export function decompressRaw(payload: Uint8Array, dictionary?: Uint8Array): string {
  return inflateRawSync(payload, dictionary ? { dictionary } : {}).toString("utf8");
}
