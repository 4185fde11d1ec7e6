/**
 * A record's rows in every relation of the contract its stream fills (`orders`, `order_items` …),
 * as one text that two sources of them are compared by: the rows the API's record normalizes to,
 * and the rows stored for it (reader.ts). A day's proof (proof/day-proof.ts) compares them beside
 * the content hash, which a hand edit of the rows leaves as it was.
 *
 * Compared: every column the writers write, in its relation's shape (ids, not their keys), but
 * when the row was written (synced_at), the content hash (compared on its own) and deleted_at
 * (only live records are compared). Values as the destination keeps them (SqlDialect): flags 0/1
 * or booleans alike, JSON as text or as a parsed document alike, date-times as the API wrote them
 * or as instants, and a NUL character as the U+FFFD PostgreSQL keeps for it (pg/text.ts).
 */
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { DayStreamTables } from "../normalize/stream-tables.js";
import { rowShapeOf } from "../rules/record-rows.js";
import { FLAG_COLUMNS, isDateTimeColumn, JSON_COLUMNS, type Row } from "../schema/columns.js";
import { positionsOf, relationName, relationOf } from "../schema/relations.js";
import type { SqlDialect } from "../sql/dialect.js";

/** How the destination keeps the API's date-times (SqlDialect). */
type DateTimes = SqlDialect["dateTimes"];

type Kind = "flag" | "json" | "dateTime" | "plain";

interface ComparedColumn {
  /** The relation's name of the column. */
  name: string;
  kind: Kind;
}

/** A relation's columns as a proof compares them. */
export interface ComparedRelation {
  name: string;
  /** A child relation's positions first (`item_position`, `position`), then the others. */
  columns: readonly ComparedColumn[];
  /** A child relation's column of its parent's id (`order_id`); absent for the parent. */
  parentId?: string;
  /** How many of the first columns tell a parent's rows apart. */
  positions: number;
}

/** Columns that say when or whether a row was written, not what the API sent. */
const NOT_COMPARED: ReadonlySet<string> = new Set(["synced_at", "content_hash", "deleted_at"]);

function kindOf(stored: string): Kind {
  if (FLAG_COLUMNS.has(stored)) return "flag";
  if (JSON_COLUMNS.has(stored)) return "json";
  return isDateTimeColumn(stored) ? "dateTime" : "plain";
}

/** The compared columns of a table, under their relation's names, less `left`. */
function comparedColumns(table: SQLiteTable, left: ReadonlySet<string>): ComparedColumn[] {
  const { columns, fields } = rowShapeOf(table);
  return columns.flatMap((stored, i) => {
    const name = fields[i] as string;
    return NOT_COMPARED.has(stored) || left.has(stored) ? [] : [{ name, kind: kindOf(stored) }];
  });
}

/** The relations of a stream as a proof compares them: the records' own, then one per array. */
export interface StreamRelations {
  parent: ComparedRelation;
  children: readonly ComparedRelation[];
}

const relationsOfStreams = new WeakMap<SQLiteTable, StreamRelations>();

export function comparedRelations(stream: DayStreamTables): StreamRelations {
  let relations = relationsOfStreams.get(stream.table);
  if (!relations) {
    relations = {
      parent: {
        name: relationName(stream.table),
        columns: comparedColumns(stream.table, new Set()),
        positions: 0,
      },
      children: stream.childTables.map((table) => {
        const relation = relationOf(table);
        const positions = positionsOf(relation);
        const own = comparedColumns(table, new Set([relation.parentKey, ...positions]));
        return {
          name: relation.name,
          columns: [...positions.map((name) => ({ name, kind: "plain" as const })), ...own],
          parentId: relation.parentId,
          positions: positions.length,
        };
      }),
    };
    relationsOfStreams.set(stream.table, relations);
  }
  return relations;
}

/** A record's rows: its own, and those of each array in the order of the stream's tables. */
export interface RecordRows {
  parent: Row;
  children: readonly (readonly Row[])[];
}

/** The text two versions of a record's rows are equal by. */
export function comparableRows(
  stream: DayStreamTables,
  rows: RecordRows,
  dateTimes: DateTimes,
): string {
  const { parent, children } = comparedRelations(stream);
  const parts: unknown[] = [valuesOf(parent, rows.parent, dateTimes)];
  children.forEach((relation, i) => {
    const values = (rows.children[i] ?? []).map((row) => valuesOf(relation, row, dateTimes));
    parts.push(values.sort((a, b) => byPositions(a, b, relation.positions)));
  });
  return JSON.stringify(parts);
}

function valuesOf(relation: ComparedRelation, row: Row, dateTimes: DateTimes): unknown[] {
  return relation.columns.map(({ name, kind }) => comparable(row[name], kind, dateTimes));
}

function byPositions(a: unknown[], b: unknown[], positions: number): number {
  for (let i = 0; i < positions; i++) {
    const order = Number(a[i]) - Number(b[i]);
    if (order !== 0) return order;
  }
  return 0;
}

const withoutNul = (text: string) => (text.includes("\0") ? text.replaceAll("\0", "\uFFFD") : text);

function comparable(value: unknown, kind: Kind, dateTimes: DateTimes): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case "flag":
      return typeof value === "boolean" ? Number(value) : value;
    case "json":
      return sortedJson(parsed(value));
    case "dateTime":
      if (dateTimes === "as instants" && typeof value === "string") {
        const instant = Date.parse(value);
        if (!Number.isNaN(instant)) return instant;
      }
      return value;
    default:
      return typeof value === "string" ? withoutNul(value) : value;
  }
}

/** JSON text as its document; text that is no JSON (a hand edit) as itself. */
function parsed(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return { notJson: value };
  }
}

/** A document with its keys in one order (PostgreSQL's jsonb keeps its own), its text without
 * NUL. */
function sortedJson(value: unknown): unknown {
  if (typeof value === "string") return withoutNul(value);
  if (Array.isArray(value)) return value.map(sortedJson);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = sortedJson((value as Record<string, unknown>)[key]);
  return sorted;
}
