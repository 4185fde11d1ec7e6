/**
 * A version of a record as history keeps it (schema/history.ts), and what the next version
 * changed: pure, shared by both destinations. A version is the record's rows as the destination
 * stored them; the next one is the rows a sync is about to write in their place. Values are
 * compared by what they mean, not how a destination returns them (a PostgreSQL boolean and a
 * SQLite 0/1, an instant in UTC and the API's local offset, jsonb and JSON text).
 */
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { CLOCKED_TABLES, storedInteger } from "../rules/time-zone-change.js";
import { JSON_COLUMNS, offsetColumn, type Row } from "../schema/columns.js";
import { positionsOf, relationName, relationOf } from "../schema/relations.js";

/** A stored value as a destination reads it back (PostgreSQL: booleans, objects for jsonb). */
export type StoredValue = string | number | boolean | null | object;
export type StoredRow = Record<string, StoredValue>;

/** A record's rows: its own, and those of each child table in the stream's order. */
export interface VersionRows {
  parent: StoredRow;
  children: readonly StoredRow[][];
}

/** What a table contributes to a version's document and comparison. */
export interface ChildShape {
  /** The relation of the contract (schema/relations.ts). */
  name: string;
  /** The column holding the parent's id. */
  parentKey: string;
  /** The columns that tell the rows of one parent apart (positions), in key order. */
  keys: string[];
}

/** Columns that are pos-sync's bookkeeping, not the record's content (`key`: the row's key). */
const BOOKKEEPING = new Set(["key", "synced_at", "content_hash", "deleted_at", "location_id"]);
/** Columns left out of "what changed": they change with every version, or follow from others
 * and the location's clock. */
const NOT_CHANGES = new Set([
  "updated_at",
  "closed_hour",
  ...CLOCKED_TABLES.order_rows.dateTimes.map(offsetColumn),
]);

/** A child table as history reads and keeps it: through its relation of the contract, so that a
 * version reads as the contract names it, however it is stored. */
function childShape(table: SQLiteTable): ChildShape {
  const relation = relationOf(table);
  return { name: relation.name, parentKey: relation.parentId, keys: positionsOf(relation) };
}

/** A row for the document: without the columns dropped, its JSON text (SQLite's menus, tips)
 * as JSON, so that the document reads alike on both destinations. */
function documentRow(row: StoredRow, drop: ReadonlySet<string>): StoredRow {
  const kept: StoredRow = {};
  for (const [name, value] of Object.entries(row)) {
    if (drop.has(name)) continue;
    kept[name] = JSON_COLUMNS.has(name) && typeof value === "string" ? parsedJson(value) : value;
  }
  return kept;
}

/** A version's rows as one JSON document: `{"orders": {…}, "order_items": […], …}`. */
function versionDocument(
  parentName: string,
  children: readonly ChildShape[],
  rows: VersionRows,
): string {
  const document: Record<string, StoredRow | StoredRow[]> = {
    [parentName]: documentRow(rows.parent, BOOKKEEPING),
  };
  for (const [i, shape] of children.entries()) {
    const drop = new Set([...BOOKKEEPING, shape.parentKey]);
    document[shape.name] = (rows.children[i] ?? []).map((row) => documentRow(row, drop));
  }
  return JSON.stringify(document);
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;

/** Stable JSON of a value: jsonb comes back with its keys in an order of its own. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function parsedJson(text: string): StoredValue {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether two values of a column mean the same, whichever destination returned them. */
function sameValue(a: StoredValue | undefined, b: StoredValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a === "boolean" || typeof b === "boolean") return Number(a) === Number(b);
  if (typeof a === "object" || typeof b === "object") {
    const left = typeof a === "string" ? parsedJson(a) : a;
    const right = typeof b === "string" ? parsedJson(b) : b;
    return stableJson(left) === stableJson(right);
  }
  if (typeof a === "number" || typeof b === "number") return Number(a) === Number(b);
  if (DATE_TIME.test(a) && DATE_TIME.test(b)) {
    const left = Date.parse(a);
    return !Number.isNaN(left) && left === Date.parse(b);
  }
  return false;
}

function changedColumns(
  before: StoredRow,
  after: StoredRow,
  ignore: ReadonlySet<string>,
): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => !ignore.has(name) && !sameValue(before[name], after[name]));
}

function keyOf(row: StoredRow, keys: readonly string[]): string {
  return keys.map((k) => String(row[k])).join(".");
}

/** What a child table's rows changed between versions, each change named after the row. */
function childChanges(
  shape: ChildShape,
  before: readonly StoredRow[],
  after: readonly StoredRow[],
): string[] {
  const ignore = new Set([...BOOKKEEPING, ...NOT_CHANGES, shape.parentKey, ...shape.keys]);
  const earlier = new Map(before.map((row) => [keyOf(row, shape.keys), row]));
  const later = new Map(after.map((row) => [keyOf(row, shape.keys), row]));
  const changes: string[] = [];
  for (const [key, row] of earlier) {
    const next = later.get(key);
    if (!next) changes.push(`${shape.name}[${key}] removed`);
    else
      for (const column of changedColumns(row, next, ignore))
        changes.push(`${shape.name}[${key}].${column}`);
  }
  for (const key of later.keys())
    if (!earlier.has(key)) changes.push(`${shape.name}[${key}] added`);
  return changes;
}

/** What the next version changed, its own columns first, then its child rows. */
function changedFields(
  children: readonly ChildShape[],
  before: VersionRows,
  after: VersionRows,
): string[] {
  const changes = changedColumns(
    before.parent,
    after.parent,
    new Set([...BOOKKEEPING, ...NOT_CHANGES, "id"]),
  );
  for (const [i, shape] of children.entries())
    changes.push(...childChanges(shape, before.children[i] ?? [], after.children[i] ?? []));
  return changes;
}

/** Sum of the payment amounts of a version (rows of the `order_payments` child). */
function paidAmount(payments: readonly StoredRow[]): number {
  let cents = 0;
  for (const payment of payments) cents += Math.round(Number(payment.payment_amount ?? 0) * 100);
  return cents / 100;
}

export interface VersionRowInput {
  shape: HistoryShape;
  version: number;
  rows: VersionRows;
  endedAt: string;
  /** The rows that replace it; absent when the record vanished. */
  next?: VersionRows;
  /** Replaced by a repair's read (the audit, verify --repair): a correction upstream that kept
   * its updatedAt, found when the day was proved again, not a change seen as it happened. */
  repaired?: boolean;
}

/** The offsets of an order's version as history keeps it (schema/history.ts): its close's as its
 * row had it, the next version's update's, and the moment pos-sync saw it end on the location's
 * clock as the API last wrote it for the order (pos-sync's own clock has no location). */
export function versionOffsets(
  row: Readonly<Record<string, unknown>>,
  next?: Readonly<Record<string, unknown>>,
): Record<string, number | null> {
  const offset = (of: Readonly<Record<string, unknown>> | undefined, column: string) =>
    storedInteger(of?.[offsetColumn(column)]);
  const nextUpdated = offset(next, "updated_at");
  return {
    closed_at_offset: offset(row, "closed_at"),
    next_updated_at_offset: nextUpdated,
    ended_at_offset: next ? nextUpdated : offset(row, "updated_at"),
  };
}

/** A 0/1 flag from either destination's value (PostgreSQL returns booleans). */
const flagOf = (value: StoredValue | undefined): number => (value === true || value === 1 ? 1 : 0);

/** The history row of a version that just ended (schema/history.ts, order_versions). */
export function versionRow(input: VersionRowInput): Row {
  const { parent } = input.rows;
  const { shape, next } = input;
  const text = (name: string) => String(parent[name] ?? "");
  return {
    order_id: text("id"),
    version: input.version,
    location_id: text("location_id"),
    business_date: text("business_date"),
    order_number: text("order_number"),
    operator_id: text("operator_id"),
    operator_name: text("operator_name"),
    updated_at: text("updated_at"),
    closed_at: text("closed_at"),
    total: Number(parent.total),
    is_canceled: flagOf(parent.is_canceled),
    paid: paidAmount(input.rows.children[shape.paymentsAt] ?? []),
    seen_at: text("synced_at"),
    ended_at: input.endedAt,
    ended_by: next ? (input.repaired ? "repaired" : "changed") : "vanished",
    next_total: next ? Number(next.parent.total) : null,
    next_updated_at: next ? String(next.parent.updated_at) : null,
    next_operator_id: next ? String(next.parent.operator_id) : null,
    next_operator_name: next ? String(next.parent.operator_name) : null,
    next_is_canceled: next ? flagOf(next.parent.is_canceled) : null,
    changed_fields: next ? JSON.stringify(changedFields(shape.children, input.rows, next)) : null,
    content: versionDocument(shape.parentName, shape.children, input.rows),
    ...versionOffsets(parent, next?.parent),
  };
}

/** What both destinations' history writers need of a stream, worked out once. */
export interface HistoryShape {
  parentName: string;
  historyName: string;
  children: ChildShape[];
  paymentsAt: number;
}

export function historyShape(
  table: SQLiteTable,
  childTables: readonly SQLiteTable[],
  history: { table: SQLiteTable; paidFrom: SQLiteTable },
): HistoryShape {
  const paymentsAt = childTables.indexOf(history.paidFrom);
  if (paymentsAt < 0) throw new Error("the history's payments table is not among the children");
  return {
    parentName: relationName(table),
    historyName: getTableConfig(history.table).name,
    children: childTables.map(childShape),
    paymentsAt,
  };
}
