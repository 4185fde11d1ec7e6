/**
 * Everything the sync writes, one transaction per call: a page of orders or reports with its
 * rejects, a catalog list, the location and its devices. Records are normalized here (pure
 * functions in normalize/) and written with statements prepared once (writers/).
 */
import type { CatalogRecord, CatalogResource } from "../api/client.js";
import type { Location, Order, Report } from "../api/schemas.js";
import type { RejectedRecord, ValidatedRecords, ValidRecord } from "../api/validate.js";
import {
  normalizeCategory,
  normalizeDevice,
  normalizeLocation,
  normalizeModifier,
  normalizePaymentMethod,
  normalizeProduct,
  normalizeTax,
} from "./normalize/catalog.js";
import { normalizeOrder } from "./normalize/order.js";
import { normalizeReport } from "./normalize/report.js";
import type { RowContext } from "./normalize/values.js";
import type { Db } from "./open.js";
import {
  categories,
  devices,
  locations,
  modifierOptions,
  modifiers,
  orderItemDiscounts,
  orderItemModifiers,
  orderItems,
  orderPayments,
  orders,
  paymentMethods,
  productPrices,
  productSubCategories,
  products,
  reportClerkShifts,
  reportDiscounts,
  reportEntries,
  reportOrders,
  reportPayments,
  reportProducts,
  reports,
  reportTaxes,
  taxes,
} from "./schema/index.js";
import { writeTransaction } from "./write-transaction.js";
import { DayDeletions } from "./writers/day-deletions.js";
import { RejectWriter, rejectKey } from "./writers/rejects.js";
import { ReplacingWriter, type RowSet, type WriteCounts } from "./writers/replace.js";
import { type SnapshotCounts, type SnapshotRowSet, SnapshotWriter } from "./writers/snapshot.js";
import { type Row, upsertSql } from "./writers/statements.js";

/** A page of a day window, as the API client hands it over. */
export interface DayPage<T> {
  locationId: string;
  day: string;
  records: readonly ValidRecord<T>[];
  rejects: readonly RejectedRecord[];
  runId: number | null;
  syncedAt: string;
}

export interface PageCounts extends WriteCounts {
  rejected: number;
}

export type DayStream = "orders" | "reports";

type SnapshotTarget = CatalogResource | "devices";

export interface LocationCounts {
  location: "inserted" | "updated" | "unchanged";
  /** Absent when the API did not list devices. */
  devices: SnapshotCounts | undefined;
}

interface LocationRowSet {
  location: Row & { id: string; raw: string; api_key_fingerprint: string | null };
  devices: SnapshotRowSet[] | undefined;
  syncedAt: string;
}

const SNAPSHOT_TABLES = {
  products: [products, [productSubCategories, productPrices]],
  categories: [categories, []],
  modifiers: [modifiers, [modifierOptions]],
  paymentMethods: [paymentMethods, []],
  taxes: [taxes, []],
  devices: [devices, []],
} as const;

function catalogRowSet(
  resource: CatalogResource,
  valid: ValidRecord<unknown>,
  context: RowContext,
): SnapshotRowSet {
  const { raw } = valid;
  switch (resource) {
    case "products": {
      const rows = normalizeProduct(valid.record as CatalogRecord<"products">, raw, context);
      return { parent: rows.product, children: [rows.subCategories, rows.prices] };
    }
    case "modifiers": {
      const rows = normalizeModifier(valid.record as CatalogRecord<"modifiers">, raw, context);
      return { parent: rows.modifier, children: [rows.options] };
    }
    case "categories":
      return {
        parent: normalizeCategory(valid.record as CatalogRecord<"categories">, raw, context),
        children: [],
      };
    case "paymentMethods":
      return {
        parent: normalizePaymentMethod(
          valid.record as CatalogRecord<"paymentMethods">,
          raw,
          context,
        ),
        children: [],
      };
    case "taxes":
      return {
        parent: normalizeTax(valid.record as CatalogRecord<"taxes">, raw, context),
        children: [],
      };
  }
}

export class Store {
  private readonly orderWriter: ReplacingWriter;
  private readonly reportWriter: ReplacingWriter;
  private readonly rejectWriter: RejectWriter;
  private readonly deletions: DayDeletions;
  private readonly markDeletedInTransaction: (
    stream: DayStream,
    ids: string[],
    at: string,
  ) => number;
  private readonly snapshotWriters: Record<SnapshotTarget, SnapshotWriter>;
  private readonly upsertLocation;
  private readonly storedLocation;
  private readonly writeDayPage: (stream: DayStream, page: DayPage<Order | Report>) => PageCounts;
  private readonly writeLocationAndDevices: (rowSet: LocationRowSet) => LocationCounts;

  constructor(readonly db: Db) {
    const { sqlite } = db;
    this.orderWriter = new ReplacingWriter(sqlite, orders, [
      orderItems,
      orderItemModifiers,
      orderItemDiscounts,
      orderPayments,
    ]);
    this.reportWriter = new ReplacingWriter(sqlite, reports, [
      reportProducts,
      reportClerkShifts,
      reportDiscounts,
      reportTaxes,
      reportPayments,
      reportEntries,
      reportOrders,
    ]);
    this.rejectWriter = new RejectWriter(sqlite);
    this.deletions = new DayDeletions(sqlite);
    this.markDeletedInTransaction = writeTransaction(
      sqlite,
      (stream: DayStream, ids: string[], at: string) => this.deletions.markDeleted(stream, ids, at),
    );
    const snapshot = (target: SnapshotTarget) => {
      const [parent, children] = SNAPSHOT_TABLES[target];
      return new SnapshotWriter(sqlite, parent, children);
    };
    this.snapshotWriters = {
      products: snapshot("products"),
      categories: snapshot("categories"),
      modifiers: snapshot("modifiers"),
      paymentMethods: snapshot("paymentMethods"),
      taxes: snapshot("taxes"),
      devices: snapshot("devices"),
    };
    this.upsertLocation = sqlite.prepare<[Row]>(upsertSql(locations, ["id"]));
    this.storedLocation = sqlite.prepare<
      [string],
      { raw: string; api_key_fingerprint: string | null }
    >("SELECT raw, api_key_fingerprint FROM locations WHERE id = ?");
    this.writeDayPage = writeTransaction(
      sqlite,
      (stream: DayStream, page: DayPage<Order | Report>) => this.dayPage(stream, page),
    );
    this.writeLocationAndDevices = writeTransaction(sqlite, (rowSet: LocationRowSet) => {
      const stored = this.storedLocation.get(rowSet.location.id);
      const unchanged =
        stored?.raw === rowSet.location.raw &&
        stored.api_key_fingerprint === rowSet.location.api_key_fingerprint;
      if (!unchanged) this.upsertLocation.run(rowSet.location);
      const location: LocationCounts["location"] =
        stored === undefined ? "inserted" : unchanged ? "unchanged" : "updated";
      if (!rowSet.devices) return { location, devices: undefined };
      const devices = this.snapshotWriters.devices.write({
        locationId: rowSet.location.id,
        rowSets: rowSet.devices,
        listedIds: new Set(rowSet.devices.map((d) => d.parent.id)),
        complete: true,
        syncedAt: rowSet.syncedAt,
      });
      return { location, devices };
    });
  }

  /** Stores a page of a day's orders and its rejects in one transaction. */
  writeOrders(page: DayPage<Order>): PageCounts {
    return this.writeDayPage("orders", page);
  }

  /** Stores a page of a day's reports and its rejects in one transaction. */
  writeReports(page: DayPage<Report>): PageCounts {
    return this.writeDayPage("reports", page);
  }

  /** Stores a page of either day stream in one transaction. */
  writePage<S extends DayStream>(
    stream: S,
    page: DayPage<S extends "orders" ? Order : Report>,
  ): PageCounts {
    return this.writeDayPage(stream, page);
  }

  private dayPage(stream: DayStream, page: DayPage<Order | Report>): PageCounts {
    const context = {
      locationId: page.locationId,
      businessDate: page.day,
      syncedAt: page.syncedAt,
    };
    const rowSets: RowSet[] = page.records.map(({ record, raw }) => {
      if (stream === "orders") {
        const rows = normalizeOrder(record as Order, raw, context);
        return {
          parent: rows.order,
          children: [rows.items, rows.modifiers, rows.discounts, rows.payments],
        };
      }
      const rows = normalizeReport(record as Report, raw, context);
      const {
        report,
        products: p,
        clerkShifts,
        discounts,
        taxes: t,
        payments,
        entries,
        orders: o,
      } = rows;
      return { parent: report, children: [p, clerkShifts, discounts, t, payments, entries, o] };
    });
    const writer = stream === "orders" ? this.orderWriter : this.reportWriter;
    const counts = writer.write(rowSets);
    this.rejectWriter.resolveStored(
      page.locationId,
      stream,
      rowSets.map((r) => r.parent.id),
    );
    this.rejectWriter.record(page.rejects, {
      runId: page.runId,
      locationId: page.locationId,
      stream,
      day: page.day,
      rejectedAt: page.syncedAt,
    });
    return { ...counts, rejected: page.rejects.length };
  }

  /** After a complete read of a day window: forgets the window's rejects that the read did not
   * return again (the API fixed or dropped those records). */
  settleWindowRejects(
    locationId: string,
    stream: DayStream,
    day: string,
    rejects: readonly RejectedRecord[],
  ): number {
    return this.rejectWriter.keepOnly(locationId, stream, day, rejects.map(rejectKey));
  }

  /** What a complete read of a day means for the records stored for it: how many are live,
   * and which of those the read did not list (neither as a record nor as a reject). */
  unlistedRecords(
    stream: DayStream,
    locationId: string,
    day: string,
    listedIds: readonly string[],
  ): { live: number; unlisted: string[] } {
    return {
      live: this.deletions.liveCount(stream, locationId, day),
      unlisted: this.deletions.unlisted(stream, locationId, day, listedIds),
    };
  }

  /** Of these orders, the ones a live stored report lists (see sync/day-window.ts). */
  ordersListedByReport(locationId: string, orderIds: readonly string[]): string[] {
    return this.deletions.listedByLiveReport(locationId, orderIds);
  }

  /** Marks records deleted upstream (soft: the rows stay, every view leaves them out). */
  markDeleted(stream: DayStream, ids: readonly string[], at: string): number {
    if (ids.length === 0) return 0;
    return this.markDeletedInTransaction(stream, [...ids], at);
  }

  /** Sets aside records read outside any window (by id): one transaction. */
  recordRejects(
    stream: string,
    rejects: readonly RejectedRecord[],
    context: { locationId: string; runId: number | null; rejectedAt: string; requestedId?: string },
  ): void {
    writeTransaction(this.db.sqlite, () =>
      this.rejectWriter.record(rejects, { ...context, stream, day: null }),
    )();
  }

  /** Sets aside a location record that breaks the spec (its id, if any, is the location's). */
  recordLocationReject(
    reject: RejectedRecord,
    context: { runId: number | null; rejectedAt: string },
  ): void {
    this.rejectWriter.record([reject], {
      ...context,
      locationId: reject.recordId ?? "unknown",
      stream: "location",
      day: null,
    });
  }

  /** Stores one catalog list of a location as a snapshot. */
  writeCatalog<R extends CatalogResource>(
    resource: R,
    list: ValidatedRecords<CatalogRecord<R>>,
    context: RowContext & { runId: number | null },
  ): SnapshotCounts & { rejected: number } {
    const rowSets = list.records.map((valid) => catalogRowSet(resource, valid, context));
    const listedIds = new Set<string>(rowSets.map((r) => r.parent.id));
    for (const reject of list.rejects) if (reject.recordId) listedIds.add(reject.recordId);
    const write = writeTransaction(this.db.sqlite, () => {
      const counts = this.snapshotWriters[resource].write({
        locationId: context.locationId,
        rowSets,
        listedIds,
        complete: list.rejects.every((r) => r.recordId !== null),
        syncedAt: context.syncedAt,
      });
      // The list is whole: its rejects replace the earlier ones.
      this.rejectWriter.keepOnly(context.locationId, resource, null, list.rejects.map(rejectKey));
      this.rejectWriter.record(list.rejects, {
        ...context,
        stream: resource,
        day: null,
        rejectedAt: context.syncedAt,
      });
      return counts;
    });
    return { ...write(), rejected: list.rejects.length };
  }

  /** Whether a run stored this location already. */
  isLocationStored(locationId: string): boolean {
    return this.storedLocation.get(locationId) !== undefined;
  }

  /** Stores the location, and its devices as a snapshot when the API listed them. */
  writeLocation(
    valid: ValidRecord<Location>,
    context: { syncedAt: string; apiKeyFingerprint: string },
  ): LocationCounts {
    const location = normalizeLocation(valid.record, valid.raw, context);
    const rawDevices = (JSON.parse(valid.raw) as { deviceList?: unknown[] }).deviceList;
    const deviceRows = valid.record.deviceList?.map((device, position) =>
      normalizeDevice(device, JSON.stringify(rawDevices?.[position] ?? device), position, {
        locationId: location.id,
        syncedAt: context.syncedAt,
      }),
    );
    return this.writeLocationAndDevices({
      location,
      devices: deviceRows?.map((parent) => ({ parent, children: [] })),
      syncedAt: context.syncedAt,
    });
  }
}
