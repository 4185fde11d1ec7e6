/**
 * Where a sample of records departs from the spec: a required field missing, a type that
 * differs, a value out of the spec's range, a field the spec does not list. Pure: records in,
 * contradictions out, grouped by field so that fifty orders with one quirk make one line.
 */
import { z } from "zod";
import { pathText, recordIdOf } from "../api/validate.js";

export type ContradictionKind = "missing" | "type" | "value" | "unknown-field";

export interface Contradiction {
  /** "order", "report", "product"… */
  resource: string;
  /** The field, arrays as []: "items[].tax.taxRate". */
  field: string;
  kind: ContradictionKind;
  /** "expected number, received string"; for an unknown field, the types seen. */
  detail: string;
  /** Records of the sample that show it. */
  records: number;
  /** The id of one of them, when it has one. */
  example?: string;
}

type Key = string | number | symbol;

/** A field's place named across records: "items[].price". */
const fieldPath = (path: readonly Key[]) => pathText(path, { indexes: false });

/** Objects whose other fields the spec says exist but does not show ("Other device fields: not
 * shown"): a field there is no contradiction. */
const OPEN_OBJECTS: Readonly<Record<string, readonly string[]>> = {
  location: ["deviceList[]"],
};

/** Objects whose required fields the spec does not state ("Which item fields are required: not
 * shown"): a missing one departs from what pos-sync expects, not from the spec. */
const REQUIRED_UNSTATED: Readonly<Record<string, readonly string[]>> = {
  order: ["items[]."],
};

function missingDetail(resource: string, field: string, expected: string): string {
  const unstated = (REQUIRED_UNSTATED[resource] ?? []).some((prefix) => field.startsWith(prefix));
  return unstated
    ? `missing (pos-sync expects ${expected}; the spec does not say whether it is required)`
    : `missing (the spec requires ${expected})`;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function valueAt(record: unknown, path: readonly Key[]): unknown {
  let value = record;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<Key, unknown>)[key];
  }
  return value;
}

/** The schema under optional, nullable, default and pipe wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodDefault) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
}

/** Fields of `value` that its schema does not name, at any depth; elements of records whose
 * fields the spec leaves unshown (menus, tips) are not judged. */
export function unknownFields(
  schema: z.ZodType,
  value: unknown,
  path: Key[] = [],
): { path: Key[]; value: unknown }[] {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodArray && Array.isArray(value)) {
    return value.flatMap((element, index) =>
      unknownFields(inner.element as z.ZodType, element, [...path, index]),
    );
  }
  if (!(inner instanceof z.ZodObject) || value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return [];
  const shape = inner.shape as Record<string, z.ZodType>;
  return Object.entries(value as Record<string, unknown>).flatMap(([key, field]) => {
    const fieldSchema = shape[key];
    if (fieldSchema === undefined) return [{ path: [...path, key], value: field }];
    return unknownFields(fieldSchema, field, [...path, key]);
  });
}

interface Sighting {
  kind: ContradictionKind;
  field: string;
  detail: string;
}

function sightings(schema: z.ZodType, record: unknown, resource: string): Sighting[] {
  const open = OPEN_OBJECTS[resource] ?? [];
  const found: Sighting[] = [];
  const parsed = schema.safeParse(record);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldPath(issue.path);
      const actual = valueAt(record, issue.path);
      if (issue.code === "invalid_type" && actual === undefined) {
        found.push({
          kind: "missing",
          field,
          detail: missingDetail(resource, field, issue.expected),
        });
      } else if (issue.code === "invalid_type") {
        found.push({
          kind: "type",
          field,
          detail: `${typeName(actual)} where the spec says ${issue.expected === "int" ? "integer" : issue.expected}`,
        });
      } else {
        found.push({ kind: "value", field, detail: issue.message.replace(/^Invalid input: /, "") });
      }
    }
  }
  for (const unknown of unknownFields(schema, record)) {
    if (open.includes(fieldPath(unknown.path.slice(0, -1)))) continue;
    found.push({
      kind: "unknown-field",
      field: fieldPath(unknown.path),
      detail: `not in the spec (${typeName(unknown.value)})`,
    });
  }
  return found;
}

/** Every departure from the spec in a sample of one resource, grouped by field and kind. */
export function checkSample(
  resource: string,
  schema: z.ZodType,
  records: readonly unknown[],
): Contradiction[] {
  const grouped = new Map<string, Contradiction>();
  for (const record of records) {
    const seen = new Set<string>();
    for (const sighting of sightings(schema, record, resource)) {
      const key = `${sighting.kind}\u0000${sighting.field}\u0000${sighting.detail}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const existing = grouped.get(key);
      if (existing) {
        existing.records++;
        continue;
      }
      const example = recordIdOf(record);
      grouped.set(key, {
        resource,
        field: sighting.field,
        kind: sighting.kind,
        detail: sighting.detail,
        records: 1,
        ...(example === undefined ? {} : { example }),
      });
    }
  }
  return [...grouped.values()];
}
