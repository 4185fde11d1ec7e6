/**
 * The content hash: the fingerprint that tells a changed record from an unchanged one without
 * keeping its text, in the typed tables (content_hash) and while a walk of pages remembers the
 * records it has seen.
 */
import { hash } from "node:crypto";

/**
 * A record's content hash: the first 48 bits of the SHA-1 of its JSON, a whole number that
 * JavaScript and SQLite both hold exactly. It is only ever compared between two versions of the
 * same record, where a chance collision (1 in 2^48) would keep one stale version until the record
 * changes again.
 */
export function contentHash(raw: string): number {
  return hash("sha1", raw, "buffer").readUIntBE(0, 6);
}
