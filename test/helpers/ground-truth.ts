/**
 * Compares a synced database with the simulator's dataset, record by record and field by field,
 * and says what differs in plain words. It does not reuse pos-sync's normalizers: the expected
 * columns follow from the API records by the naming rule of docs/database.md (snake_case of the field,
 * nested single objects flattened, arrays as child tables by position), for every field the
 * spec's schema lists; fields it does not list must survive in the raw archive, which must hold
 * each record exactly as the API sent it. It reads either destination (stored-data.ts): values
 * are compared as that destination stores them.
 */
import { z } from "zod";
import {
  categorySchema,
  deviceSchema,
  locationSchema,
  modifierSchema,
  orderSchema,
  paymentMethodSchema,
  productSchema,
  reportSchema,
  taxSchema,
} from "../../src/api/schemas.js";
import { toEpochDay } from "../../src/clock/days.js";
import { CHILD_RELATIONS } from "../../src/db/schema/relations.js";
import { tableName } from "../../src/db/sql/table.js";
import type { Db } from "../../src/db/sqlite/open.js";
import type { Dataset } from "../../src/simulator/dataset.js";
import type { SimLocation } from "../../src/simulator/location.js";
import { type StoredData, sqliteData } from "./stored-data.js";

type Json = Record<string, unknown>;
type DbRow = Record<string, unknown>;
type ObjectSchema = z.ZodObject<z.ZodRawShape>;

export interface CompareOptions {
  since: string;
  until: string;
  /** Locations to compare (default: all of the dataset). */
  locations?: readonly SimLocation[];
  /** Records the simulator serves malformed: expected in rejected_records, not in the tables. */
  isMalformed?: (id: string) => boolean;
  /** Also compare reports (default true): false where the POS changed them after they were read. */
  reports?: boolean;
  /** Also compare location, devices and catalog (default true). */
  catalog?: boolean;
  /** Stop after this many differences (default 20). */
  limit?: number;
  /** Expect every record's JSON in the raw archive (default true; false: synced with --no-raw,
   * then expect none). */
  rawArchive?: boolean;
  /** Report child rows that no stored parent owns (default true; false where a test left some
   * behind on purpose, as a client with foreign keys off does). */
  orphanRows?: boolean;
}

// Both are asked for every field of every record compared: each answer is worked out once.
const snakeNames = new Map<string, string>();
const unwrapped = new WeakMap<z.ZodType, z.ZodType>();

function snake(name: string): string {
  let column = snakeNames.get(name);
  if (column === undefined) {
    column = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    snakeNames.set(name, column);
  }
  return column;
}

/** The schema under optional() and nullable(). */
function unwrap(schema: z.ZodType): z.ZodType {
  let inner = unwrapped.get(schema);
  if (inner === undefined) {
    inner = schema;
    while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable)
      inner = inner.unwrap() as z.ZodType;
    unwrapped.set(schema, inner);
  }
  return inner;
}

interface ChildSpec {
  table: string;
  /** Columns that tie a child row to its parent, and their values. */
  key: (parent: Json) => Record<string, unknown>;
  /** Renamed fields: API field → column. */
  renames?: Record<string, string>;
  /** A scalar element (report orders): the column that holds it. */
  scalarColumn?: string;
}

interface RecordSpec {
  renames?: Record<string, string>;
  children?: Record<string, ChildSpec>;
  /** Arrays stored as JSON text in one column. */
  json?: readonly string[];
}

class Comparison {
  readonly differences: string[] = [];

  constructor(
    private readonly stored: StoredData,
    private readonly limit: number,
    private readonly rawArchive: boolean,
  ) {}

  get full(): boolean {
    return this.differences.length >= this.limit;
  }

  differ(message: string): void {
    if (!this.full) this.differences.push(message);
  }

  rows(sql: string, ...params: unknown[]): Promise<DbRow[]> {
    return this.stored.rows(sql, ...params);
  }

  async record(
    label: string,
    record: Json,
    row: DbRow,
    schema: ObjectSchema,
    spec: RecordSpec = {},
  ): Promise<void> {
    for (const [field, value] of Object.entries(record)) {
      const fieldSchema = schema.shape[field];
      if (this.full || fieldSchema === undefined) continue;
      const kind = unwrap(fieldSchema as z.ZodType);
      if (spec.json?.includes(field)) {
        this.expectJson(label, snake(field), row, value === null ? null : JSON.stringify(value));
      } else if (kind instanceof z.ZodArray) {
        const child = spec.children?.[field];
        if (child)
          await this.children(
            `${label} ${field}`,
            record,
            value as unknown[],
            child,
            kind.element as z.ZodType,
          );
      } else if (kind instanceof z.ZodObject && value !== null) {
        for (const [inner, innerValue] of Object.entries(value as Json)) {
          if (kind.shape[inner] !== undefined) this.expect(label, snake(inner), row, innerValue);
        }
      } else {
        this.expect(label, spec.renames?.[field] ?? snake(field), row, value);
      }
    }
  }

  /** The record's JSON in the raw archive is the record as the API sent it (or, with the
   * archive off, is not there). */
  async archived(label: string, table: string, locationId: string, record: Json): Promise<void> {
    const documents = await this.stored.archived(table, record.id as string, locationId);
    if (!this.rawArchive) {
      if (documents.length > 0) this.differ(`${label}: raw JSON archived with the archive off`);
      return;
    }
    const [document] = documents;
    if (!document) this.differ(`${label}: no raw JSON in the archive`);
    else if (!this.stored.sameDocument(document, record))
      this.differ(`${label}: the archived JSON is not the record as the API sent it`);
  }

  private expect(label: string, column: string, row: DbRow, expected: unknown): void {
    if (!(column in row)) {
      this.differ(`${label}: no column ${column} for a field of the spec`);
    } else if (!this.stored.same(row[column], expected)) {
      this.differ(
        `${label}: ${column} is ${JSON.stringify(row[column])}, the API says ${JSON.stringify(expected)}`,
      );
    }
  }

  private expectJson(label: string, column: string, row: DbRow, json: string | null): void {
    if (!(column in row)) this.differ(`${label}: no column ${column} for a field of the spec`);
    else if (!this.stored.sameJson(row[column], json))
      this.differ(`${label}: ${column} is ${JSON.stringify(row[column])}, the API says ${json}`);
  }

  async children(
    label: string,
    parent: Json,
    elements: unknown[],
    spec: ChildSpec,
    element: z.ZodType,
  ): Promise<void> {
    const key = spec.key(parent);
    const where = Object.keys(key)
      .map((c) => `${c} = ?`)
      .join(" AND ");
    const stored = await this.rows(
      `SELECT * FROM ${spec.table} WHERE ${where} ORDER BY position`,
      ...Object.values(key),
    );
    if (stored.length !== elements.length) {
      this.differ(
        `${label}: ${stored.length} rows in ${spec.table}, the API has ${elements.length}`,
      );
      return;
    }
    for (const [position, value] of elements.entries()) {
      const row = stored[position] as DbRow;
      if (row.position !== position)
        this.differ(`${label}[${position}]: stored at position ${row.position}`);
      const elementSchema = unwrap(element);
      if (spec.scalarColumn) this.expect(`${label}[${position}]`, spec.scalarColumn, row, value);
      else if (elementSchema instanceof z.ZodObject) {
        await this.record(
          `${label}[${position}]`,
          value as Json,
          row,
          elementSchema as ObjectSchema,
          {
            renames: spec.renames,
          },
        );
      }
    }
  }
}

const ORDER_SPEC: RecordSpec = {
  json: ["menus", "tips"],
  children: {
    // Item modifiers and discounts are keyed by the item's position: compareOrders reads them.
    items: { table: "order_items", key: (order) => ({ order_id: order.id }) },
    payments: { table: "order_payments", key: (order) => ({ order_id: order.id }) },
  },
};

const REPORT_SPEC: RecordSpec = {
  children: {
    reportProducts: { table: "report_products", key: (r) => ({ report_id: r.id }) },
    reportClerksShift: {
      table: "report_clerk_shifts",
      key: (r) => ({ report_id: r.id }),
      renames: { id: "clerk_id" },
    },
    reportDiscounts: { table: "report_discounts", key: (r) => ({ report_id: r.id }) },
    reportTaxes: { table: "report_taxes", key: (r) => ({ report_id: r.id }) },
    reportPayments: { table: "report_payments", key: (r) => ({ report_id: r.id }) },
    reportEntries: { table: "report_entries", key: (r) => ({ report_id: r.id }) },
    orders: { table: "report_orders", key: (r) => ({ report_id: r.id }), scalarColumn: "order_id" },
  },
};

/** Defaults the spec gives to optional order fields, as the columns hold them. */
const ORDER_DEFAULTS: Record<string, [string, unknown]> = {
  channel: ["channel", "unknown"],
  serviceType: ["service_type", "unknown"],
  isTraining: ["is_training", false],
};

const itemSchema = orderSchema.shape.items.element;

async function compareOrder(c: Comparison, stored: StoredData, order: Json): Promise<void> {
  const id = order.id as string;
  const [row] = await c.rows("SELECT * FROM orders WHERE id = ?", id);
  if (!row) {
    c.differ(`order ${id} (${order.createdAt}) is missing`);
    return;
  }
  const label = `order ${id}`;
  await c.record(label, order, row, orderSchema as unknown as ObjectSchema, ORDER_SPEC);
  await c.archived(label, "orders", row.location_id as string, order);
  for (const [field, [column, value]] of Object.entries(ORDER_DEFAULTS)) {
    if (!(field in order) && !stored.same(row[column], value))
      c.differ(`${label}: ${column} should default to ${value}`);
  }
  for (const [position, item] of (order.items as Json[]).entries()) {
    const taxRate = (item.tax as Json).taxRate as number;
    const [item_row] = await c.rows(
      "SELECT tax_rate_bp FROM order_items WHERE order_id = ? AND position = ?",
      id,
      position,
    );
    if (item_row?.tax_rate_bp !== Math.round(taxRate * 10_000))
      c.differ(`${label} item ${position}: tax_rate_bp`);
    const arrays = [
      ["modifiers", "order_item_modifiers", itemSchema.shape.modifiers.element],
      ["discountsApplied", "order_item_discounts", itemSchema.shape.discountsApplied.element],
    ] as const;
    for (const [field, table, element] of arrays) {
      const spec = { table, key: () => ({ order_id: id, item_position: position }) };
      await c.children(
        `${label} item ${position} ${field}`,
        item,
        item[field] as unknown[],
        spec,
        element,
      );
    }
  }
}

async function compareReport(c: Comparison, report: Json): Promise<void> {
  const id = report.id as string;
  const [row] = await c.rows("SELECT * FROM reports WHERE id = ?", id);
  if (!row) {
    c.differ(`report ${id} (${report.createdAt}) is missing`);
    return;
  }
  await c.record(`report ${id}`, report, row, reportSchema as unknown as ObjectSchema, REPORT_SPEC);
  await c.archived(`report ${id}`, "reports", row.location_id as string, report);
  for (const tax of await c.rows(
    "SELECT tax_rate, tax_rate_bp FROM report_taxes WHERE report_id = ?",
    id,
  )) {
    if (tax.tax_rate !== tax.tax_rate_bp)
      c.differ(`report ${id}: tax_rate_bp ${tax.tax_rate_bp} for ${tax.tax_rate}`);
  }
}

interface CatalogList {
  table: string;
  records: Json[];
  schema: ObjectSchema;
  spec: RecordSpec;
  /** The simulator can serve these malformed (devices come inside the location, never). */
  malformable: boolean;
}

function catalogLists(dataset: Dataset, location: SimLocation): CatalogList[] {
  const locationId = location.location.id;
  const list = (
    table: string,
    records: unknown[],
    schema: unknown,
    spec: RecordSpec = {},
    malformable = true,
  ) => ({
    table,
    records: records as Json[],
    schema: schema as ObjectSchema,
    spec,
    malformable,
  });
  return [
    list("products", dataset.products(location), productSchema, {
      children: {
        subCategories: {
          table: "product_sub_categories",
          key: (p) => ({ location_id: locationId, product_id: p.id }),
          renames: { id: "sub_category_id" },
        },
        priceList: {
          table: "product_prices",
          key: (p) => ({ location_id: locationId, product_id: p.id }),
        },
      },
    }),
    list("categories", dataset.categories(location), categorySchema, {
      renames: { index: "position" },
    }),
    list("modifiers", dataset.modifiers(location), modifierSchema, {
      children: {
        options: {
          table: "modifier_options",
          key: (m) => ({ location_id: locationId, modifier_id: m.id }),
        },
      },
    }),
    list("payment_methods", dataset.paymentMethods(location), paymentMethodSchema),
    list("taxes", dataset.taxes(location), taxSchema),
    list("devices", dataset.devices(location), deviceSchema, {}, false),
  ];
}

async function compareCatalog(
  c: Comparison,
  dataset: Dataset,
  location: SimLocation,
  isMalformed: (id: string) => boolean,
): Promise<void> {
  const locationId = location.location.id;
  for (const { table, records, schema, spec, malformable } of catalogLists(dataset, location)) {
    const listed = new Set(records.map((r) => r.id));
    const live = await c.rows(
      `SELECT id FROM ${table} WHERE location_id = ? AND deleted_at IS NULL`,
      locationId,
    );
    const extra = live.filter((r) => !listed.has(r.id));
    if (extra.length > 0)
      c.differ(`${table}: ${extra.length} rows not in the API's list are not marked deleted`);
    for (const record of records) {
      if (malformable && isMalformed(record.id as string)) continue;
      const [row] = await c.rows(
        `SELECT * FROM ${table} WHERE location_id = ? AND id = ?`,
        locationId,
        record.id,
      );
      if (!row) {
        c.differ(`${table} ${record.id} is missing`);
        continue;
      }
      if (row.deleted_at !== null)
        c.differ(`${table} ${record.id} is marked deleted but the API lists it`);
      await c.record(`${table} ${record.id}`, record, row, schema, spec);
      await c.archived(`${table} ${record.id}`, table, locationId, record);
    }
  }
  const [stored] = await c.rows("SELECT * FROM locations WHERE id = ?", locationId);
  if (!stored) {
    c.differ(`location ${locationId} is missing`);
    return;
  }
  const withDevices = { ...location.location, deviceList: dataset.devices(location) };
  await c.record(
    `location ${locationId}`,
    withDevices as unknown as Json,
    stored,
    locationSchema as unknown as ObjectSchema,
  );
  await c.archived(
    `location ${locationId}`,
    "locations",
    locationId,
    withDevices as unknown as Json,
  );
}

async function compareDays(
  c: Comparison,
  stored: StoredData,
  dataset: Dataset,
  location: SimLocation,
  options: CompareOptions,
): Promise<void> {
  const isMalformed = options.isMalformed ?? (() => false);
  let expectedOrders = 0;
  let expectedReports = 0;
  for (let day = toEpochDay(options.since); day <= toEpochDay(options.until); day++) {
    for (const order of dataset.ordersCreatedOn(location, day)) {
      if (isMalformed(order.id)) continue;
      expectedOrders++;
      if (!c.full) await compareOrder(c, stored, order as unknown as Json);
    }
    if (options.reports === false) continue;
    for (const report of dataset.reportsCreatedOn(location, day)) {
      if (isMalformed(report.id)) continue;
      expectedReports++;
      if (!c.full) await compareReport(c, report as unknown as Json);
    }
  }
  const locationId = location.location.id;
  const range = [locationId, options.since, options.until];
  const where = "location_id = ? AND business_date BETWEEN ? AND ?";
  const [orders] = await c.rows(`SELECT COUNT(*) AS n FROM orders WHERE ${where}`, ...range);
  const [reports] = await c.rows(`SELECT COUNT(*) AS n FROM reports WHERE ${where}`, ...range);
  if (orders?.n !== expectedOrders)
    c.differ(`location ${locationId}: ${orders?.n} orders stored, the API has ${expectedOrders}`);
  if (options.reports !== false && reports?.n !== expectedReports) {
    c.differ(
      `location ${locationId}: ${reports?.n} reports stored, the API has ${expectedReports}`,
    );
  }
}

/** Child rows whose parent row is gone: a replaced record's rows of its earlier version, which
 * the views would hide (they join each row to its parent). */
async function compareOrphanRows(c: Comparison, stored: StoredData): Promise<void> {
  for (const { table, parent, parentKey } of CHILD_RELATIONS) {
    const [orphans] = await stored.rows(
      `SELECT COUNT(*) AS n FROM ${tableName(table)} c
       WHERE NOT EXISTS (SELECT 1 FROM ${tableName(parent)} p WHERE p.key = c.${parentKey})`,
    );
    if (Number(orphans?.n) !== 0)
      c.differ(`${tableName(table)}: ${orphans?.n} rows of no stored ${tableName(parent)}`);
  }
}

/** Differences between the database (a SQLite connection, or either destination's stored
 * data) and the simulator's data, in plain words; empty when equal. */
export async function compareWithDataset(
  db: Db | StoredData,
  dataset: Dataset,
  options: CompareOptions,
): Promise<string[]> {
  const given = "sqlite" in db ? sqliteData(db) : db;
  const stored = given.frozen?.() ?? given;
  const c = new Comparison(stored, options.limit ?? 20, options.rawArchive ?? true);
  for (const location of options.locations ?? dataset.locations) {
    await compareDays(c, stored, dataset, location, options);
    if (options.catalog !== false)
      await compareCatalog(c, dataset, location, options.isMalformed ?? (() => false));
  }
  if (options.orphanRows !== false) await compareOrphanRows(c, stored);
  return c.differences;
}
