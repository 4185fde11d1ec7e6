/**
 * Record-by-record validation: one bad record does not sink its page. Valid records keep their
 * JSON as received (unknown fields included) for the `raw` column; invalid ones come back with
 * their id when they have one, the problems in plain words, and their JSON.
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import { contentHash } from "../content-hash.js";
import type { CpuLane } from "../cpu-lane.js";
import { schemaCheckOf } from "./schema-check.js";

export interface ValidRecord<T> {
  record: T;
  /** The record's JSON as the API sent it. */
  raw: string;
  /** contentHash(raw), computed once when the record was validated: the walk's dedupe, a day's
   * proof and the typed row all use it. */
  hash?: number;
}

export interface RejectedRecord {
  recordId: string | null;
  reason: string;
  raw: string;
}

/** A rejected record's identity: its id, or a hash of its JSON when it has no usable id. */
export function rejectKey(reject: RejectedRecord): string {
  return reject.recordId ?? `sha1:${createHash("sha1").update(reject.raw).digest("hex")}`;
}

export interface ValidatedRecords<T> {
  records: ValidRecord<T>[];
  rejects: RejectedRecord[];
}

/** A field's place in a record: "items[2].price", or "items[].price" without the indexes (a
 * field named across records). */
export function pathText(path: readonly PropertyKey[], options = { indexes: true }): string {
  let text = "";
  for (const key of path) {
    if (typeof key === "number") text += options.indexes ? `[${key}]` : "[]";
    else text += text === "" ? String(key) : `.${String(key)}`;
  }
  return text || "(record)";
}

function plainMessage(message: string): string {
  return message
    .replace(/^Invalid input: expected (.+), received undefined$/, "missing (expected $1)")
    .replace(/^Invalid input: /, "");
}

/** "total: expected number, received string; items: missing (expected array)" */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${pathText(issue.path)}: ${plainMessage(issue.message)}`)
    .join("; ")
    .concat(issues.length > 5 ? `; and ${issues.length - 5} more` : "");
}

/** A record's `id` when it is a non-empty string. */
export function recordIdOf(value: unknown): string | undefined {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** The record's id, unless it is missing or is itself one of the problems. */
function idOf(value: unknown, issues: readonly z.core.$ZodIssue[]): string | null {
  if (issues.some((issue) => issue.path.length === 1 && issue.path[0] === "id")) return null;
  return recordIdOf(value) ?? null;
}

export function validateRecord<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; valid: ValidRecord<z.output<S>> } | { ok: false; reject: RejectedRecord } {
  const raw = JSON.stringify(value) ?? "null";
  // A record the schema's compiled check passes is its own output (schema-check.ts).
  if (schemaCheckOf(schema)?.(value))
    return { ok: true, valid: { record: value as z.output<S>, raw, hash: contentHash(raw) } };
  const result = schema.safeParse(value);
  if (result.success)
    return { ok: true, valid: { record: result.data, raw, hash: contentHash(raw) } };
  const { issues } = result.error;
  return {
    ok: false,
    reject: { recordId: idOf(value, issues), reason: describeIssues(issues), raw },
  };
}

/** Validates a list's records, taking them: each slot is emptied once its record is validated, so
 * that the parsed JSON of a page dies record by record instead of outliving the whole page (what
 * the reading thread holds that long is promoted out of its young generation). The work is done
 * in slices (cpu-lane.ts). */
export async function validateRecords<S extends z.ZodType>(
  schema: S,
  values: unknown[],
  lane: CpuLane,
): Promise<ValidatedRecords<z.output<S>>> {
  const validated: ValidatedRecords<z.output<S>> = { records: [], rejects: [] };
  for (let i = 0; i < values.length; i++) {
    if (lane.sliceOver()) await lane.nextSlice();
    const value = values[i];
    values[i] = undefined;
    const result = validateRecord(schema, value);
    if (result.ok) validated.records.push(result.valid);
    else validated.rejects.push(result.reject);
  }
  return validated;
}
