/**
 * Compares a synced database with the simulator's dataset, record by record and field by field,
 * and says what differs in plain words. It does not reuse pos-sync's normalizers: the expected
 * columns follow from the API records by the README's naming rule (snake_case of the field,
 * nested single objects flattened, arrays as child tables by position), for every field the
 * spec's schema lists; fields it does not list must survive in the raw archive, which must hold
 * each record exactly as the API sent it.
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
import { toEpochDay } from "../../src/dates.js";
import type { Db } from "../../src/db/open.js";
import { rawRecordReader } from "../../src/db/raw/archive.js";
import type { Dataset } from "../../src/simulator/dataset.js";
import type { SimLocation } from "../../src/simulator/location.js";

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
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function asColumn(value: unknown): unknown {
  return typeof value === "boolean" ? (value ? 1 : 0) : value;
}

/** The schema under optional() and nullable(). */
function unwrap(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable)
    inner = inner.unwrap() as z.ZodType;
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
  private readonly readRaw: ReturnType<typeof rawRecordReader>;

  constructor(
    private readonly db: Db,
    private readonly limit: number,
    private readonly rawArchive: boolean,
  ) {
    this.readRaw = rawRecordReader(db.sqlite);
  }

  get full(): boolean {
    return this.differences.length >= this.limit;
  }

  differ(message: string): void {
    if (!this.full) this.differences.push(message);
  }

  rows(sql: string, ...params: unknown[]): DbRow[] {
    return this.db.sqlite.prepare(sql).all(...params) as DbRow[];
  }

  record(
    label: string,
    record: Json,
    row: DbRow,
    schema: ObjectSchema,
    spec: RecordSpec = {},
  ): void {
    for (const [field, value] of Object.entries(record)) {
      const fieldSchema = schema.shape[field];
      if (this.full || fieldSchema === undefined) continue;
      const kind = unwrap(fieldSchema as z.ZodType);
      if (spec.json?.includes(field)) {
        this.expect(label, snake(field), row, value === null ? null : JSON.stringify(value));
      } else if (kind instanceof z.ZodArray) {
        const child = spec.children?.[field];
        if (child)
          this.children(
            `${label} ${field}`,
            record,
            value as unknown[],
            child,
            kind.element as z.ZodType,
          );
      } else if (kind instanceof z.ZodObject && value !== null) {
        for (const [inner, innerValue] of Object.entries(value as Json)) {
          if (kind.shape[inner] !== undefined)
            this.expect(label, snake(inner), row, asColumn(innerValue));
        }
      } else {
        this.expect(label, spec.renames?.[field] ?? snake(field), row, asColumn(value));
      }
    }
  }

  /** The record's JSON in the raw archive is the record as the API sent it (or, with the
   * archive off, is not there). */
  archived(label: string, table: string, locationId: string, record: Json): void {
    const documents = this.readRaw(table, record.id as string, locationId);
    if (!this.rawArchive) {
      if (documents.length > 0) this.differ(`${label}: raw JSON archived with the archive off`);
      return;
    }
    const [document] = documents;
    if (!document) this.differ(`${label}: no raw JSON in the archive`);
    else if (JSON.stringify(JSON.parse(document.json)) !== JSON.stringify(record))
      this.differ(`${label}: the archived JSON is not the record as the API sent it`);
  }

  private expect(label: string, column: string, row: DbRow, expected: unknown): void {
    if (!(column in row)) {
      this.differ(`${label}: no column ${column} for a field of the spec`);
    } else if (row[column] !== expected) {
      this.differ(
        `${label}: ${column} is ${JSON.stringify(row[column])}, the API says ${JSON.stringify(expected)}`,
      );
    }
  }

  children(
    label: string,
    parent: Json,
    elements: unknown[],
    spec: ChildSpec,
    element: z.ZodType,
  ): void {
    const key = spec.key(parent);
    const where = Object.keys(key)
      .map((c) => `${c} = ?`)
      .join(" AND ");
    const stored = this.rows(
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
        this.record(`${label}[${position}]`, value as Json, row, elementSchema as ObjectSchema, {
          renames: spec.renames,
        });
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
  isTraining: ["is_training", 0],
};

const itemSchema = orderSchema.shape.items.element;

function compareOrder(c: Comparison, order: Json): void {
  const id = order.id as string;
  const [row] = c.rows("SELECT * FROM orders WHERE id = ?", id);
  if (!row) {
    c.differ(`order ${id} (${order.createdAt}) is missing`);
    return;
  }
  const label = `order ${id}`;
  c.record(label, order, row, orderSchema as unknown as ObjectSchema, ORDER_SPEC);
  c.archived(label, "orders", row.location_id as string, order);
  for (const [field, [column, value]] of Object.entries(ORDER_DEFAULTS)) {
    if (!(field in order) && row[column] !== value)
      c.differ(`${label}: ${column} should default to ${value}`);
  }
  for (const [position, item] of (order.items as Json[]).entries()) {
    const taxRate = (item.tax as Json).taxRate as number;
    const [stored] = c.rows(
      "SELECT tax_rate_bp FROM order_items WHERE order_id = ? AND position = ?",
      id,
      position,
    );
    if (stored?.tax_rate_bp !== Math.round(taxRate * 10_000))
      c.differ(`${label} item ${position}: tax_rate_bp`);
    const arrays = [
      ["modifiers", "order_item_modifiers", itemSchema.shape.modifiers.element],
      ["discountsApplied", "order_item_discounts", itemSchema.shape.discountsApplied.element],
    ] as const;
    for (const [field, table, element] of arrays) {
      const spec = { table, key: () => ({ order_id: id, item_position: position }) };
      c.children(
        `${label} item ${position} ${field}`,
        item,
        item[field] as unknown[],
        spec,
        element,
      );
    }
  }
}

function compareReport(c: Comparison, report: Json): void {
  const id = report.id as string;
  const [row] = c.rows("SELECT * FROM reports WHERE id = ?", id);
  if (!row) {
    c.differ(`report ${id} (${report.createdAt}) is missing`);
    return;
  }
  c.record(`report ${id}`, report, row, reportSchema as unknown as ObjectSchema, REPORT_SPEC);
  c.archived(`report ${id}`, "reports", row.location_id as string, report);
  for (const tax of c.rows(
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

function compareCatalog(
  c: Comparison,
  dataset: Dataset,
  location: SimLocation,
  isMalformed: (id: string) => boolean,
): void {
  const locationId = location.location.id;
  for (const { table, records, schema, spec, malformable } of catalogLists(dataset, location)) {
    const listed = new Set(records.map((r) => r.id));
    const live = c.rows(
      `SELECT id FROM ${table} WHERE location_id = ? AND deleted_at IS NULL`,
      locationId,
    );
    const extra = live.filter((r) => !listed.has(r.id));
    if (extra.length > 0)
      c.differ(`${table}: ${extra.length} rows not in the API's list are not marked deleted`);
    for (const record of records) {
      if (malformable && isMalformed(record.id as string)) continue;
      const [row] = c.rows(
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
      c.record(`${table} ${record.id}`, record, row, schema, spec);
      c.archived(`${table} ${record.id}`, table, locationId, record);
    }
  }
  const [stored] = c.rows("SELECT * FROM locations WHERE id = ?", locationId);
  if (!stored) {
    c.differ(`location ${locationId} is missing`);
    return;
  }
  const withDevices = { ...location.location, deviceList: dataset.devices(location) };
  c.record(
    `location ${locationId}`,
    withDevices as unknown as Json,
    stored,
    locationSchema as unknown as ObjectSchema,
  );
  c.archived(`location ${locationId}`, "locations", locationId, withDevices as unknown as Json);
}

function compareDays(
  c: Comparison,
  dataset: Dataset,
  location: SimLocation,
  options: CompareOptions,
): void {
  const isMalformed = options.isMalformed ?? (() => false);
  let expectedOrders = 0;
  let expectedReports = 0;
  for (let day = toEpochDay(options.since); day <= toEpochDay(options.until); day++) {
    for (const order of dataset.ordersCreatedOn(location, day)) {
      if (isMalformed(order.id)) continue;
      expectedOrders++;
      if (!c.full) compareOrder(c, order as unknown as Json);
    }
    if (options.reports === false) continue;
    for (const report of dataset.reportsCreatedOn(location, day)) {
      if (isMalformed(report.id)) continue;
      expectedReports++;
      if (!c.full) compareReport(c, report as unknown as Json);
    }
  }
  const locationId = location.location.id;
  const range = [locationId, options.since, options.until];
  const where = "location_id = ? AND business_date BETWEEN ? AND ?";
  const [orders] = c.rows(`SELECT COUNT(*) AS n FROM orders WHERE ${where}`, ...range);
  const [reports] = c.rows(`SELECT COUNT(*) AS n FROM reports WHERE ${where}`, ...range);
  if (orders?.n !== expectedOrders)
    c.differ(`location ${locationId}: ${orders?.n} orders stored, the API has ${expectedOrders}`);
  if (options.reports !== false && reports?.n !== expectedReports) {
    c.differ(
      `location ${locationId}: ${reports?.n} reports stored, the API has ${expectedReports}`,
    );
  }
}

/** Differences between the database and the simulator's data, in plain words; empty when equal. */
export function compareWithDataset(db: Db, dataset: Dataset, options: CompareOptions): string[] {
  const c = new Comparison(db, options.limit ?? 20, options.rawArchive ?? true);
  for (const location of options.locations ?? dataset.locations) {
    compareDays(c, dataset, location, options);
    if (options.catalog !== false)
      compareCatalog(c, dataset, location, options.isMalformed ?? (() => false));
  }
  return c.differences;
}
