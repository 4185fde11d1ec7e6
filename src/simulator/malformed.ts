/** Deterministic corruptions of a record, each one a way real feeds break the spec: a wrong
 * type, a missing required field, an impossible value, an unusable id. */
import { hashString } from "./random.js";

type JsonRecord = Record<string, unknown>;
type Corruption = (record: JsonRecord) => void;

const ORDER_CORRUPTIONS: readonly Corruption[] = [
  (r) => {
    r.total = String(r.total);
  },
  (r) => {
    r.createdAt = "yesterday evening";
  },
  (r) => {
    delete r.items;
  },
  (r) => {
    r.guests = -1;
  },
  (r) => {
    const [first] = (r.items as JsonRecord[] | undefined) ?? [];
    if (first) first.tax = null;
    else r.items = "none";
  },
  (r) => {
    r.id = 42;
  },
];

const REPORT_CORRUPTIONS: readonly Corruption[] = [
  (r) => {
    r.totalSales = "n/a";
  },
  (r) => {
    r.reportNumber = 0;
  },
  (r) => {
    delete r.reportHeaderInfo;
  },
  (r) => {
    r.createdAt = "2026-13-45T25:00:00Z";
  },
];

const GENERIC_CORRUPTIONS: readonly Corruption[] = [
  (r) => {
    r.name = null;
  },
  (r) => {
    r.id = "not-a-uuid";
  },
];

export type MalformableKind = "order" | "report" | "catalog";

const CORRUPTIONS: Record<MalformableKind, readonly Corruption[]> = {
  order: ORDER_CORRUPTIONS,
  report: REPORT_CORRUPTIONS,
  catalog: GENERIC_CORRUPTIONS,
};

/** A corrupted deep copy of the record; which corruption depends only on the record's id. */
export function malform<T extends { id: string }>(record: T, kind: MalformableKind): JsonRecord {
  const copy = structuredClone(record) as unknown as JsonRecord;
  const corruptions = CORRUPTIONS[kind];
  const corrupt = corruptions[hashString(`corruption:${record.id}`) % corruptions.length];
  corrupt?.(copy);
  return copy;
}
