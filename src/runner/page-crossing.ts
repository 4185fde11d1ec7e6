/**
 * A page's child rows as they cross to the writing thread (remote-destination.ts). A page of 100
 * orders has about 20,000 of them: the structured clone writes and then reads each value alone,
 * and a string as often as it appears (6,200 strings a page, of about 110 distinct). Here they
 * cross as one array of kinds, one of numbers and the page's distinct strings: 0.85 ms a page
 * to pack, copy and unpack, against 1.8 ms for the clone (docs/benchmarks.md, part 13). The
 * records keep everything else (their own row, their JSON or its payload) and cross as they are.
 */

import type { IncomingRecord } from "../db/rules/day-page.js";
import type { PackedRows } from "../db/rules/record-rows.js";

/** What a value is, in `kinds`; a number or a string's place in `strings` is in `numbers`. */
const KIND = { number: 0, string: 1, null: 2, undefined: 3, true: 4, false: 5 } as const;

/** The child rows of a page's records, packed. */
interface PackedChildren {
  kinds: Uint8Array;
  numbers: Float64Array;
  strings: string[];
  /** For each record: its number of child tables, then each table's count of values. */
  counts: Uint32Array;
}

/** A page's records as they cross: without their child rows, which `children` holds. */
export interface CrossingPage {
  crossingPage: true;
  records: IncomingRecord[];
  children: PackedChildren;
}

/** Whether a list is a page's records, as the sync hands them to writePage. */
function isRecordList(list: readonly unknown[]): list is IncomingRecord[] {
  return Array.isArray((list[0] as Partial<IncomingRecord> | undefined)?.rows?.children);
}

export function isCrossingPage(value: unknown): value is CrossingPage {
  return (value as Partial<CrossingPage> | null)?.crossingPage === true;
}

function countsOf(records: readonly IncomingRecord[]): { counts: Uint32Array; values: number } {
  let slots = 0;
  for (const record of records) slots += 1 + record.rows.children.length;
  const counts = new Uint32Array(slots);
  let at = 0;
  let values = 0;
  for (const record of records) {
    counts[at++] = record.rows.children.length;
    for (const rows of record.rows.children) {
      counts[at++] = rows.length;
      values += rows.length;
    }
  }
  return { counts, values };
}

/** A page's records ready to cross, or the list as it is when it is not a page's records or
 * holds a value of no kind here (an object), which the structured clone then copies. */
export function packPage(value: readonly unknown[]): unknown {
  if (!isRecordList(value)) return value;
  const { counts, values } = countsOf(value);
  const kinds = new Uint8Array(values);
  const numbers = new Float64Array(values);
  const strings: string[] = [];
  const stringAt = new Map<string, number>();
  let at = 0;
  for (const record of value) {
    for (const rows of record.rows.children) {
      for (const v of rows) {
        if (typeof v === "number") numbers[at] = v;
        else if (typeof v === "string") {
          let place = stringAt.get(v);
          if (place === undefined) {
            place = strings.push(v) - 1;
            stringAt.set(v, place);
          }
          kinds[at] = KIND.string;
          numbers[at] = place;
        } else if (v === null) kinds[at] = KIND.null;
        else if (v === undefined) kinds[at] = KIND.undefined;
        else if (typeof v === "boolean") kinds[at] = v ? KIND.true : KIND.false;
        else return value;
        at++;
      }
    }
  }
  const records = value.map((record) => ({
    ...record,
    rows: { parent: record.rows.parent, children: [] },
  }));
  return { crossingPage: true, records, children: { kinds, numbers, strings, counts } };
}

function valueAt(children: PackedChildren, at: number): unknown {
  const number = children.numbers[at] as number;
  switch (children.kinds[at]) {
    case KIND.number:
      return number;
    case KIND.string:
      return children.strings[number];
    case KIND.null:
      return null;
    case KIND.true:
      return true;
    case KIND.false:
      return false;
    default:
      return undefined;
  }
}

/** The records of a page that crossed packed, their child rows back in place. */
export function unpackPage(page: CrossingPage): IncomingRecord[] {
  const { children } = page;
  const { counts } = children;
  let slot = 0;
  let at = 0;
  for (const record of page.records) {
    const tables = counts[slot++] as number;
    const rows: PackedRows[] = new Array(tables);
    for (let t = 0; t < tables; t++) {
      const length = counts[slot++] as number;
      const values: PackedRows = new Array(length);
      for (let i = 0; i < length; i++) values[i] = valueAt(children, at++);
      rows[t] = values;
    }
    record.rows.children = rows;
  }
  return page.records;
}
