/**
 * Record-by-record validation: one bad record does not sink its page. Valid records keep their
 * JSON as received (unknown fields included) for the `raw` column; invalid ones come back with
 * their id when they have one, the problems in plain words, and their JSON.
 */
import type { z } from "zod";

export interface ValidRecord<T> {
  record: T;
  /** The record's JSON as the API sent it. */
  raw: string;
}

export interface RejectedRecord {
  recordId: string | null;
  reason: string;
  raw: string;
}

export interface ValidatedRecords<T> {
  records: ValidRecord<T>[];
  rejects: RejectedRecord[];
}

function pathText(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    text += typeof key === "number" ? `[${key}]` : text === "" ? String(key) : `.${String(key)}`;
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

/** The record's id, unless it is missing or is itself one of the problems. */
function idOf(value: unknown, issues: readonly z.core.$ZodIssue[]): string | null {
  if (issues.some((issue) => issue.path.length === 1 && issue.path[0] === "id")) return null;
  if (value && typeof value === "object" && "id" in value) {
    const { id } = value as { id: unknown };
    if (typeof id === "string" && id !== "") return id;
  }
  return null;
}

export function validateRecord<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; valid: ValidRecord<z.output<S>> } | { ok: false; reject: RejectedRecord } {
  const raw = JSON.stringify(value) ?? "null";
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, valid: { record: result.data, raw } };
  const { issues } = result.error;
  return {
    ok: false,
    reject: { recordId: idOf(value, issues), reason: describeIssues(issues), raw },
  };
}

export function validateRecords<S extends z.ZodType>(
  schema: S,
  values: readonly unknown[],
): ValidatedRecords<z.output<S>> {
  const validated: ValidatedRecords<z.output<S>> = { records: [], rejects: [] };
  for (const value of values) {
    const result = validateRecord(schema, value);
    if (result.ok) validated.records.push(result.valid);
    else validated.rejects.push(result.reject);
  }
  return validated;
}
