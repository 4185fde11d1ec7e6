/**
 * The floor of `pos-sync sync`: a hand-written program doing the same work on the same data, so
 * that the end-to-end benchmark can state pos-sync's CPU per order as a ratio to it (e2e.ts).
 * Plain JavaScript run by node, as the built CLI is: no loader's cost on either side.
 *
 * The same work: the location, its devices and the catalog; every day from the earliest report
 * through today, four days at once, orders then reports, page by page of 100 over one undici
 * agent; JSON.parse; each record validated by pos-sync's own zod schemas (through the checks
 * compiled from them, as pos-sync validates) and stringified once
 * for its content hash and the raw archive; one stored-version read per page; positional
 * prepared inserts into the schema pos-sync's migrations make (the catalog ids of orders' arrays by
 * their keys, remembered once looked up; foreign keys on, the same pragmas
 * and 8 MB cache); each record's JSON deflated with a dictionary learned from its table's
 * first page into raw_records (plain INSERT: a backfill has nothing to replace); each day's
 * summaries and its reports' reconciliation computed once, when both its streams are read; a
 * checkpoint per day window; commits every 250 ms. What it leaves out is what only a tool must
 * do: retries, logs, progress, rejects, cross-checks, deletions, history, leases.
 *
 * Keep it honest: when pos-sync does more per order, so must this.
 *
 * Environment: POS_API_URL, POS_API_KEYS (one key), POS_DB_PATH, POS_CONCURRENCY (default 4).
 * Prints the orders and requests it made, as `pos-sync sync` does.
 */
import { hash } from "node:crypto";
import { hostname } from "node:os";
import pLimit from "p-limit";
import { Agent, request } from "undici";
import { schemaCheckOf } from "../dist/api/schema-check.js";
import {
  categorySchema,
  locationSchema,
  modifierSchema,
  orderSchema,
  paymentMethodSchema,
  productSchema,
  reportSchema,
  taxSchema,
} from "../dist/api/schemas.js";
import { addDays, eachDay } from "../dist/clock/days.js";
import { utcOffsetOf } from "../dist/clock/offsets.js";
import { today } from "../dist/clock/today.js";
import {
  normalizeCategory,
  normalizeDevice,
  normalizeLocation,
  normalizeModifier,
  normalizePaymentMethod,
  normalizeProduct,
  normalizeTax,
} from "../dist/db/normalize/catalog.js";
import { buildDictionary, compressRaw } from "../dist/db/raw/codec.js";
import { ApiIds } from "../dist/db/sqlite/api-ids.js";
import { openDatabase } from "../dist/db/sqlite/open.js";
import { Rollups } from "../dist/db/sqlite/rollups.js";

const { POS_API_URL: url, POS_API_KEYS: key, POS_DB_PATH: dbPath } = process.env;
if (!url || !key || !dbPath)
  throw new Error("POS_API_URL, POS_API_KEYS and POS_DB_PATH are needed");
const concurrency = Number(process.env.POS_CONCURRENCY ?? 4);
const PAGE_SIZE = 100;
const COMMIT_EVERY_MS = 250;

const agent = new Agent({ connections: concurrency });
let requests = 0;

async function getJson(path, query = {}) {
  requests++;
  const target = new URL(path, url);
  for (const [name, value] of Object.entries(query)) target.searchParams.set(name, String(value));
  const response = await request(target, {
    dispatcher: agent,
    headers: { authorization: key, accept: "application/json" },
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${path}: HTTP ${response.statusCode}`);
  return JSON.parse(text);
}

const { sqlite } = openDatabase(dbPath);
const syncedAt = new Date().toISOString();

/** Column names written out with spaces between them. */
const columns = ([text]) => text.trim().split(/\s+/);

/** INSERT of the columns given, bound by position. */
function insertInto(table, columns) {
  return sqlite.prepare(
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
}

/** INSERT of a normalizer's row (catalog and location only: a fixed cost, not one per order). */
const rowInserts = new Map();
function insertRow(table, row) {
  let statement = rowInserts.get(table);
  if (!statement) {
    statement = insertInto(table, Object.keys(row));
    rowInserts.set(table, statement);
  }
  statement.run(Object.values(row));
}

// Commits in groups, as pos-sync's writes do (group-commit.ts).
let inTransaction = false;
function writing() {
  if (!inTransaction) sqlite.exec("BEGIN");
  inTransaction = true;
}
function commit() {
  if (inTransaction) sqlite.exec("COMMIT");
  inTransaction = false;
}
const committer = setInterval(commit, COMMIT_EVERY_MS);

const runId = Number(
  sqlite
    .prepare(
      "INSERT INTO sync_runs (started_at, status, trigger, pid, hostname) VALUES (?, 'running', 'manual', ?, ?)",
    )
    .run(syncedAt, process.pid, hostname()).lastInsertRowid,
);

const contentHash = (raw) => hash("sha1", raw, "buffer").readUIntBE(0, 6);
const bit = (value) => (value === undefined || value === null ? null : value ? 1 : 0);

// The raw archive: one dictionary per table, learned from its first page.
const dictionaries = new Map();
const insertDictionary = sqlite.prepare(
  "INSERT INTO raw_dictionaries (table_name, dictionary, created_at) VALUES (?, ?, ?)",
);
const insertRaw = insertInto(
  "raw_records",
  columns`table_name location_id id dictionary_id payload synced_at`,
);
function archive(table, locationId, id, raw) {
  const dictionary = dictionaries.get(table);
  insertRaw.run(
    table,
    locationId,
    id,
    dictionary?.id ?? null,
    compressRaw(raw, dictionary?.bytes),
    syncedAt,
  );
}
function learnDictionary(table, records) {
  if (dictionaries.has(table)) return;
  const bytes = buildDictionary(records.map((r) => r.raw));
  if (!bytes) return;
  const id = Number(insertDictionary.run(table, bytes, syncedAt).lastInsertRowid);
  dictionaries.set(table, { id, bytes });
}

/** Valid records of a page, each with its JSON: checked as pos-sync checks them, by the check
 * compiled from the schema, the record itself kept (zod parses only what the check refuses). */
function validated(schema, values) {
  const check = schemaCheckOf(schema);
  const records = [];
  for (const value of values) {
    if (check?.(value)) records.push({ record: value, raw: JSON.stringify(value) });
    else {
      const parsed = schema.safeParse(value);
      if (parsed.success) records.push({ record: parsed.data, raw: JSON.stringify(value) });
    }
  }
  return records;
}

// The location and its devices, then the catalog.
const locationJson = await getJson("/v1/locations/own", { devices: true });
const location = locationSchema.parse(locationJson);
const locationId = location.id;
const context = { locationId, syncedAt };
writing();
const locationRaw = JSON.stringify(locationJson);
insertRow(
  "locations",
  normalizeLocation(location, locationRaw, { syncedAt, apiKeyFingerprint: "" }),
);
archive("locations", locationId, locationId, locationRaw);
for (const [position, device] of (location.deviceList ?? []).entries())
  insertRow("devices", normalizeDevice(device, JSON.stringify(device), position, context));

const catalog = [
  ["/v1/catalog/", productSchema, "products", normalizeProduct],
  ["/v1/catalog/categories/", categorySchema, "categories", normalizeCategory],
  ["/v1/catalog/modifiers/", modifierSchema, "modifiers", normalizeModifier],
  ["/v1/catalog/payment-methods/", paymentMethodSchema, "payment_methods", normalizePaymentMethod],
  ["/v1/catalog/taxes/", taxSchema, "taxes", normalizeTax],
];
const catalogLists = await Promise.all(catalog.map(([path]) => getJson(path)));
writing();
for (const [i, [, schema, table, normalize]] of catalog.entries()) {
  const records = validated(schema, catalogLists[i]);
  learnDictionary(table, records);
  for (const { record, raw } of records) {
    const rows = normalize(record, raw, context);
    if (table === "products") {
      insertRow("products", rows.product);
      for (const row of rows.subCategories) insertRow("product_sub_categories", row);
      for (const row of rows.prices) insertRow("product_prices", row);
    } else if (table === "modifiers") {
      insertRow("modifiers", rows.modifier);
      for (const row of rows.options) insertRow("modifier_options", row);
    } else insertRow(table, rows);
    archive(table, locationId, record.id, raw);
  }
}

// The days: from the earliest report's (both ends of the list) through the location's today.
const reportEnds = [];
const head = await getJson("/v1/reports/", { size: 1, index: 0 });
reportEnds.push(head.data[0]);
if (head.meta.totalCount > 1)
  reportEnds.push(
    (await getJson("/v1/reports/", { size: 1, index: head.meta.totalCount - 1 })).data[0],
  );
const ends = reportEnds.filter(Boolean);
const offset = ends.map((r) => utcOffsetOf(r.createdAt)).find((o) => o !== undefined) ?? 0;
const locationToday = today(new Date(), offset);
const earliest = ends
  .flatMap((r) => [r.createdAt.slice(0, 10), r.startedAt.slice(0, 10)])
  .sort()[0];
const days = eachDay(earliest ?? addDays(locationToday, -90), locationToday);

/** The keys of the ids orders and the rows of their arrays keep by key (api_ids). */
const apiIds = new ApiIds(sqlite);

/** Orders: the row and its children, positional, in the schema's column order. */
const ORDERS = {
  path: "/v1/orders/",
  table: "orders",
  schema: orderSchema,
  insert: insertInto(
    "order_rows",
    columns`id location_ref business_date created_at updated_at customer_id device_ref device_name report_ref opened_at closed_at closed_hour guests order_place order_number operator_ref operator_name total total_tax total_discount menus tips is_canceled is_transferred transfer_reason cancel_reason channel service_type is_training source external_order_id external_location_id content_hash synced_at`,
  ),
  item: insertInto(
    "order_item_rows",
    columns`order_key position description quantity weight unit_price total category sub_category is_canceled cancel_reason tier is_transferred transfer_reason stock_impact_indicator tax_name tax_rate tax_rate_bp tax_amount tax_catalog_ref item_catalog_ref is_loss loss_reason combo_parent_id`,
  ),
  modifier: insertInto(
    "order_item_modifier_rows",
    columns`order_key item_position position modifier_group_ref modifier_ref name`,
  ),
  discount: insertInto(
    "order_item_discount_rows",
    columns`order_key item_position position discount_name discount_value discount_catalog_ref`,
  ),
  payment: insertInto(
    "order_payment_rows",
    columns`order_key position payment_amount payment_name payment_catalog_ref`,
  ),
  write(o, day, contentHash) {
    const key = this.insert.run(
      o.id,
      apiIds.keyOf(locationId),
      day,
      o.createdAt,
      o.updatedAt,
      o.customerId,
      o.deviceId === null ? null : apiIds.keyOf(o.deviceId),
      o.deviceName ?? null,
      apiIds.keyOf(o.reportId),
      o.openedAt,
      o.closedAt,
      hourOf(o.closedAt),
      o.guests,
      o.orderPlace,
      o.orderNumber,
      apiIds.keyOf(o.operatorId),
      o.operatorName,
      o.total,
      o.totalTax,
      o.totalDiscount,
      JSON.stringify(o.menus),
      o.tips === null ? null : JSON.stringify(o.tips),
      bit(o.isCanceled),
      bit(o.isTransferred),
      o.transferReason,
      o.cancelReason,
      o.channel ?? "unknown",
      o.serviceType ?? "unknown",
      bit(o.isTraining ?? false),
      o.source,
      o.externalOrderId,
      o.externalLocationId,
      contentHash,
      syncedAt,
    ).lastInsertRowid;
    for (let i = 0; i < o.items.length; i++) {
      const t = o.items[i];
      this.item.run(
        key,
        i,
        t.description,
        t.quantity,
        t.weight,
        t.unitPrice,
        t.total,
        t.category,
        t.subCategory,
        bit(t.isCanceled),
        t.cancelReason,
        t.tier,
        bit(t.isTransferred),
        t.transferReason,
        bit(t.stockImpactIndicator),
        t.tax.taxName,
        t.tax.taxRate,
        Math.round(t.tax.taxRate * 10_000),
        t.tax.taxAmount,
        apiIds.keyOf(t.tax.taxCatalogId),
        apiIds.keyOf(t.itemCatalogId),
        bit(t.isLoss),
        t.lossReason ?? null,
        t.comboParentId ?? null,
      );
      for (let m = 0; m < t.modifiers.length; m++) {
        const x = t.modifiers[m];
        this.modifier.run(
          key,
          i,
          m,
          apiIds.keyOf(x.modifierGroupId),
          apiIds.keyOf(x.modifierId),
          x.name,
        );
      }
      for (let d = 0; d < t.discountsApplied.length; d++) {
        const x = t.discountsApplied[d];
        this.discount.run(
          key,
          i,
          d,
          x.discountName,
          x.discountValue,
          apiIds.keyOf(x.discountCatalogId),
        );
      }
    }
    for (let p = 0; p < o.payments.length; p++) {
      const x = o.payments[p];
      this.payment.run(key, p, x.paymentAmount, x.paymentName, apiIds.keyOf(x.paymentCatalogId));
    }
  },
};

/** Reports: the row (header flattened) and its seven arrays, positional. */
const child = (table, names) => insertInto(table, ["report_key", "position", ...names]);
const REPORTS = {
  path: "/v1/reports/",
  table: "reports",
  schema: reportSchema,
  insert: insertInto(
    "reports",
    columns`id location_id business_date created_at updated_at started_at finalized_at device_name device_identifier report_number guests_number total_sales header_address header_city header_country header_name header_phone header_naf header_siret header_text header_tva header_zip header_url clerk_name clerk_id initial_cash_balance final_cash_balance content_hash synced_at`,
  ),
  product: child(
    "report_product_rows",
    columns`product_name product_sales category sub_category product_quantity product_catalog_id`,
  ),
  shift: child("report_clerk_shift_rows", columns`clerk_id name clock_in_date clock_out_date`),
  discount: child(
    "report_discount_rows",
    columns`discount_name discount_value discount_catalog_id`,
  ),
  tax: child("report_tax_rows", columns`tax_name tax_rate tax_rate_bp tax_amount taxable_amount`),
  payment: child("report_payment_rows", columns`payment_name payment_amount`),
  entry: child("report_entry_rows", columns`entry_name entry_amount entry_type`),
  order: child("report_order_rows", columns`order_id`),
  write(r, day, contentHash) {
    const h = r.reportHeaderInfo;
    const key = this.insert.run(
      r.id,
      locationId,
      day,
      r.createdAt,
      r.updatedAt,
      r.startedAt,
      r.finalizedAt,
      r.deviceName,
      r.deviceIdentifier,
      r.reportNumber,
      r.guestsNumber,
      r.totalSales,
      h.headerAddress,
      h.headerCity,
      h.headerCountry,
      h.headerName,
      h.headerPhone,
      h.headerNaf,
      h.headerSiret,
      h.headerText,
      h.headerTva,
      h.headerZip,
      h.headerUrl ?? null,
      r.clerkName,
      r.clerkId,
      r.initialCashBalance,
      r.finalCashBalance,
      contentHash,
      syncedAt,
    ).lastInsertRowid;
    for (const [i, x] of r.reportProducts.entries())
      this.product.run(
        key,
        i,
        x.productName,
        x.productSales,
        x.category,
        x.subCategory,
        x.productQuantity,
        x.productCatalogId,
      );
    for (const [i, x] of r.reportClerksShift.entries())
      this.shift.run(key, i, x.id, x.name, x.clockInDate, x.clockOutDate);
    for (const [i, x] of r.reportDiscounts.entries())
      this.discount.run(key, i, x.discountName, x.discountValue, x.discountCatalogId);
    for (const [i, x] of r.reportTaxes.entries())
      this.tax.run(
        key,
        i,
        x.taxName,
        x.taxRate,
        Math.round(x.taxRate),
        x.taxAmount,
        x.taxableAmount,
      );
    for (const [i, x] of r.reportPayments.entries())
      this.payment.run(key, i, x.paymentName, x.paymentAmount);
    for (const [i, x] of r.reportEntries.entries())
      this.entry.run(key, i, x.entryName, x.entryAmount, x.entryType);
    for (const [i, orderId] of r.orders.entries()) this.order.run(key, i, orderId);
  },
};

/** The hour a date-time shows, as written (no time zone setting: the location's clock). */
function hourOf(timestamp) {
  const hour = Number(timestamp.slice(11, 13));
  return timestamp[10] === "T" && hour <= 23 ? hour : null;
}

for (const stream of [ORDERS, REPORTS]) {
  stream.stored = sqlite.prepare(
    `SELECT id, updated_at, content_hash FROM ${stream.table} WHERE id IN (SELECT value FROM json_each(?))`,
  );
  stream.count = sqlite
    .prepare(
      `SELECT COUNT(*) FROM ${stream.table} WHERE location_id = ? AND business_date = ? AND deleted_at IS NULL`,
    )
    .pluck();
}

/** A page: the versions stored read at once, new or changed records written with their JSON;
 * returns the ids written. */
function writePage(stream, day, records) {
  writing();
  learnDictionary(stream.table, records);
  const written = [];
  const stored = new Map();
  for (const row of stream.stored.all(JSON.stringify(records.map((r) => r.record.id))))
    stored.set(row.id, row);
  for (const { record, raw } of records) {
    const hashed = contentHash(raw);
    if (stored.get(record.id)?.content_hash === hashed) continue;
    stream.write(record, day, hashed);
    archive(stream.table, locationId, record.id, raw);
    written.push(record.id);
  }
  return written;
}

const insertWindow = insertInto(
  "sync_windows",
  columns`location_id stream day status api_total_count stored_count attempts run_id synced_at`,
);

/** One day window of a stream, page by page, then its checkpoint; returns the ids written. */
async function readDay(stream, day) {
  const written = [];
  let totalCount = 0;
  for (let index = 0; ; index++) {
    const page = await getJson(stream.path, { since: day, until: day, index, size: PAGE_SIZE });
    totalCount = page.meta.totalCount;
    written.push(...writePage(stream, day, validated(stream.schema, page.data)));
    if (page.data.length === 0 || index + 1 >= page.meta.totalPage) break;
  }
  writing();
  const storedCount = stream.count.get(locationId, day);
  insertWindow.run(
    locationId,
    stream.table,
    day,
    "complete",
    totalCount,
    storedCount,
    1,
    runId,
    syncedAt,
  );
  return written;
}

const rollups = new Rollups(sqlite);
const dayAtATime = pLimit(concurrency);
let orderCount = 0;
await Promise.all(
  days.map((day) =>
    dayAtATime(async () => {
      await readDay(ORDERS, day);
      const reports = await readDay(REPORTS, day);
      writing();
      // The day's summaries and its reports' reconciliation, once.
      const reconciled = rollups.refreshDays([{ locationId, day }]);
      for (const id of reports) reconciled.add(id);
      rollups.refreshReports(reconciled);
      orderCount += ORDERS.count.get(locationId, day);
    }),
  ),
);
writing();
sqlite
  .prepare("UPDATE sync_runs SET status = 'succeeded', finished_at = ?, requests = ? WHERE id = ?")
  .run(new Date().toISOString(), requests, runId);
clearInterval(committer);
commit();
sqlite.close();
await agent.close();
process.stdout.write(`${orderCount} orders, ${requests} requests\n`);
