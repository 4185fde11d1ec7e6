/**
 * The stores' contract: every public function of every store (src/db/reads/, the outbox's and
 * the alerts' stores, PostgreSQL's turns) asked of one small, hand-made chain written through the
 * sync's port (helpers/contract-data.ts), with the same expectation on SQLite and PostgreSQL.
 * What a database hands back in its own types (SQLite's 0/1 flags, JSON text and date-times as
 * sent; PostgreSQL's booleans, parsed JSON and instants) is compared as what it means.
 */
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import { databaseFor } from "../src/db/choose.js";
import type { DaemonHold } from "../src/db/database.js";
import type { AlertStore } from "../src/db/deliveries/alerts.js";
import type { DeliveryStore, NewDelivery } from "../src/db/deliveries/deliveries.js";
import type { Reader } from "../src/db/reads/reader.js";
import { silentLogger } from "../src/log.js";
import { ORDERS, PRODUCTS, REPORTS } from "../src/streams/index.js";
import {
  ALPHA,
  AT,
  BRAVO,
  CHARLIE,
  DAY,
  KEYS,
  NEXT_DAY,
  ORDER,
  REPORT_ALPHA,
  REPORT_BRAVO,
  writeContractData,
} from "./helpers/contract-data.js";
import { OPERATOR } from "./helpers/contract-records.js";
import { DESTINATION_KINDS, useDestinations } from "./helpers/destinations.js";

const destinations = useDestinations();

/** A date-time as the instant it names. */
const instant = (value: unknown) =>
  value === null || value === undefined ? value : new Date(String(value)).toISOString();
/** A flag as either database stores it. */
const flag = (value: unknown) => (value === null ? null : value === true || value === 1);
/** JSON as text (SQLite) or parsed (PostgreSQL). */
const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

describe.each(DESTINATION_KINDS)("the stores on %s", (kind) => {
  let reader: Reader;
  let hold: DaemonHold;
  let runs: { firstRun: number; secondRun: number };

  beforeAll(async () => {
    const into = await destinations.fresh(kind);
    const destination = await into.open();
    try {
      runs = await writeContractData(destination);
    } finally {
      await destination.close();
    }
    const settings = loadConfig({ env: into.env, needsApi: false });
    const database = await databaseFor(settings);
    reader = await database.openReader(settings);
    hold = await database.holdForDaemon(settings, {
      logger: silentLogger(),
      stop: new AbortController(),
      walRetryMs: 60_000,
    });
  });

  afterAll(async () => {
    await reader?.close();
    await hold?.close();
  });

  describe("locations", () => {
    it("knows the locations read and those only windows name, and the stored location of a key", async () => {
      const { locations } = reader;
      expect(await locations.knownLocations()).toEqual([
        { id: CHARLIE, name: null, read: false, key: null },
        { id: ALPHA, name: "Alpha", read: true, key: KEYS.alpha },
        { id: BRAVO, name: "Bravo", read: true, key: KEYS.bravo },
      ]);
      expect(await locations.storedLocationOfKey(KEYS.alpha)).toEqual({ id: ALPHA, name: "Alpha" });
      expect(await locations.storedLocationOfKey(KEYS.charlie)).toBeUndefined();
      expect(await locations.isLocationStored(ALPHA)).toBe(true);
      expect(await locations.isLocationStored(CHARLIE)).toBe(false);
    });

    it("takes a location's UTC offset from its time zone, else its latest order, else what a run learned", async () => {
      const { locations } = reader;
      const winter = new Date(`${DAY}T12:00:00Z`);
      const summer = new Date("2026-07-01T12:00:00Z");
      expect(await locations.utcOffsetMinutes(ALPHA, winter)).toBe(60);
      expect((await locations.utcOffsets(ALPHA))(summer)).toBe(120);
      expect(await locations.utcOffsetMinutes(BRAVO, winter)).toBe(120);
      expect((await locations.utcOffsets(BRAVO))(summer)).toBe(120);
      expect(await locations.utcOffsetMinutes(CHARLIE, winter)).toBe(-300);
      expect(await locations.utcOffsetMinutes("unknown", winter)).toBeUndefined();
    });

    it("gives a location's first day, time zone and country", async () => {
      const { locations } = reader;
      expect(await locations.startDate(ALPHA)).toBe(DAY);
      expect(await locations.startDate(BRAVO)).toBeUndefined();
      expect(await locations.timeZoneOf(ALPHA)).toBe("Europe/Paris");
      expect(await locations.timeZoneOf(BRAVO)).toBeNull();
      expect(await locations.countryOf(BRAVO)).toBe("DE");
      expect(await locations.countryOf(CHARLIE)).toBeNull();
    });
  });

  describe("checkpoints", () => {
    it("gives each window's status and record, the first day recorded and the latest window", async () => {
      const { checkpoints } = reader;
      expect([...(await checkpoints.windows(ALPHA, "orders"))]).toEqual([
        [DAY, "complete"],
        [NEXT_DAY, "open"],
      ]);
      expect(await checkpoints.firstRecordedDay(ALPHA)).toBe(DAY);
      expect(await checkpoints.firstRecordedDay("unknown")).toBeUndefined();
      const rows = await checkpoints.windowRows(ALPHA, "orders");
      expect(rows.map((r) => ({ ...r, synced_at: instant(r.synced_at) }))).toEqual([
        {
          day: DAY,
          status: "complete",
          last_error: null,
          synced_at: AT.secondRun,
          api_total_count: 1,
          stored_count: 1,
        },
        {
          day: NEXT_DAY,
          status: "open",
          last_error: null,
          synced_at: AT.firstRun,
          api_total_count: 1,
          stored_count: 1,
        },
      ]);
      const latest = await checkpoints.latestWindow(CHARLIE, "orders");
      expect({ ...latest, synced_at: instant(latest?.synced_at) }).toEqual({
        status: "failed",
        last_error: "the API refused the key",
        synced_at: AT.firstRun,
      });
      expect(await checkpoints.latestWindow(BRAVO, "catalog")).toBeUndefined();
    });

    it("gives the runs recorded, newest first, the last success and the last run's locations", async () => {
      const { checkpoints } = reader;
      const process = { pid: globalThis.process.pid, hostname: hostname() };
      const second = {
        id: runs.secondRun,
        startedAt: AT.secondRun,
        finishedAt: AT.secondRunEnd,
        status: "failed",
        trigger: "daemon",
        requests: 3,
        retries: null,
        rateLimited: null,
        error: "Charlie: the API refused the key",
        ...process,
      };
      const first = {
        id: runs.firstRun,
        startedAt: AT.firstRun,
        finishedAt: AT.firstRunEnd,
        status: "succeeded",
        trigger: "cli",
        requests: 12,
        retries: 2,
        rateLimited: 1,
        error: null,
        ...process,
      };
      const asRecorded = (run: Record<string, unknown> | undefined) => ({
        ...run,
        id: Number(run?.id),
        startedAt: instant(run?.startedAt),
        finishedAt: instant(run?.finishedAt),
        retries: run?.retries === null ? null : Number(run?.retries),
        rateLimited: run?.rateLimited === null ? null : Number(run?.rateLimited),
      });
      expect(asRecorded({ ...(await checkpoints.lastRun()) })).toEqual(second);
      expect((await checkpoints.recentRuns(5)).map((r) => asRecorded({ ...r }))).toEqual([
        second,
        first,
      ]);
      expect(await checkpoints.recentRuns(1)).toHaveLength(1);
      expect(instant(await checkpoints.lastSuccessAt())).toBe(AT.firstRunEnd);
      expect(await checkpoints.lastRunLocations()).toEqual([
        {
          runId: runs.secondRun,
          key: KEYS.charlie,
          locationId: null,
          name: null,
          label: "Charlie",
          error: "the API refused the key",
          keyRejected: true,
        },
      ]);
    });

    it("gives the audit's pace, the proved windows least recently proved first, and its coverage", async () => {
      const { checkpoints } = reader;
      expect(await checkpoints.auditPace(ALPHA)).toBe('{"period":30}');
      expect(await checkpoints.auditPace(BRAVO)).toBeUndefined();
      const proved = await checkpoints.provedWindows(BRAVO, NEXT_DAY);
      expect(proved.map((w) => ({ ...w, provedAt: instant(w.provedAt) }))).toEqual([
        { stream: "orders", day: DAY, provedAt: AT.firstRun },
        { stream: "reports", day: DAY, provedAt: AT.firstRun },
      ]);
      expect(await checkpoints.provedWindows(ALPHA, DAY)).toEqual([]);
      const coverage = await checkpoints.auditCoverage(ALPHA, NEXT_DAY, AT.firstRun);
      expect({ ...coverage, provedSince: instant(coverage.provedSince) }).toEqual({
        windows: 2,
        provedSince: AT.secondRun,
        audited: 1,
        repairs: 1,
        failedRepairs: 0,
      });
      expect(await checkpoints.auditCoverage(ALPHA, NEXT_DAY, AT.secondRunEnd)).toMatchObject({
        repairs: 0,
        failedRepairs: 0,
      });
    });
  });

  describe("days", () => {
    it("counts a day's records live and set aside, and those a listing leaves out", async () => {
      const { days } = reader;
      expect(await days.countStored(ORDERS, [ORDER.changed, ORDER.vanished, ORDER.missing])).toBe(
        2,
      );
      expect(await days.countStored(ORDERS, [])).toBe(0);
      expect(await days.storedForDay(ORDERS, ALPHA, DAY)).toEqual({ records: 4, rejected: 1 });
      expect(await days.storedForDay(REPORTS, BRAVO, DAY)).toEqual({ records: 1, rejected: 0 });
      const unlisted = await days.unlistedRecords(ORDERS, ALPHA, DAY, [
        ORDER.changed,
        ORDER.paidShort,
      ]);
      expect({ ...unlisted, unlisted: unlisted.unlisted.sort() }).toEqual({
        live: 4,
        unlisted: [ORDER.cancelledPaid, ORDER.trainingPaid],
      });
    });

    it("gives each live record of a day with its content hash, and whether its rows differ from a listing", async () => {
      const versions = await reader.days.storedVersionsOfDay(ORDERS, ALPHA, DAY, new Map());
      expect(versions.map((v) => v.id).sort()).toEqual(
        [ORDER.changed, ORDER.paidShort, ORDER.cancelledPaid, ORDER.trainingPaid].sort(),
      );
      for (const version of versions) {
        expect(version.contentHash, version.id).toEqual(expect.any(Number));
        expect(version.rowsDiffer, version.id).toBe(false);
      }
    });

    it("knows the records a run set aside, and the orders a report lists that are missing or set aside", async () => {
      const { days } = reader;
      expect(await days.rejectedInRun(ALPHA, "orders", ORDER.rejected, runs.secondRun)).toBe(true);
      expect(await days.rejectedInRun(ALPHA, "orders", ORDER.paidShort, runs.secondRun)).toBe(
        false,
      );
      expect(await days.missingReportOrders(ALPHA, 10)).toEqual([ORDER.missing]);
      expect(await days.missingReportOrders(BRAVO, 10)).toEqual([]);
      expect(
        (
          await days.ordersListedByLiveReport(ALPHA, [ORDER.changed, ORDER.missing, ORDER.vanished])
        ).sort(),
      ).toEqual([ORDER.changed, ORDER.missing]);
      expect(await days.ordersListedByLiveReport(ALPHA, [])).toEqual([]);
      expect(await days.rejectedReportOrders(REPORT_ALPHA)).toBe(1);
      expect(await days.rejectedReportOrders(REPORT_BRAVO)).toBe(0);
    });

    it("names the reports that do not agree with their stored orders", async () => {
      expect(await reader.days.reconciliationProblems(ALPHA, DAY, NEXT_DAY)).toEqual([
        {
          reportId: REPORT_ALPHA,
          reportNumber: 1,
          businessDate: DAY,
          difference: 0,
          ordersMissing: 2,
          status: "orders missing",
        },
      ]);
      expect(await reader.days.reconciliationProblems(BRAVO, DAY, NEXT_DAY)).toEqual([]);
    });
  });

  describe("status", () => {
    it("counts each table's rows live and deleted, and the records set aside", async () => {
      const { status } = reader;
      expect(await status.rowCounts(ORDERS, ALPHA)).toEqual({
        table: "orders",
        counts: { live: 4, deleted: 1 },
      });
      expect(await status.rowCounts(PRODUCTS, ALPHA)).toEqual({
        table: "products",
        counts: { live: 1, deleted: 1 },
      });
      expect(await status.rowCounts(REPORTS, BRAVO)).toEqual({
        table: "reports",
        counts: { live: 1, deleted: 0 },
      });
      expect(await status.rejectedCount(ORDERS, ALPHA)).toBe(1);
      expect(await status.rejectedCount(ORDERS, BRAVO)).toBe(0);
      expect(await status.rejectedByDay(ORDERS, ALPHA)).toEqual([{ day: DAY, count: 1 }]);
    });

    it("gives the daily sales and each report's reconciliation", async () => {
      const { status } = reader;
      expect(await status.dailySales(ALPHA, DAY, NEXT_DAY)).toEqual([
        {
          day: DAY,
          orders: 2,
          sales: 24,
          cancelledOrders: 1,
          cancelledTotal: 5,
          transferredOrders: 0,
          transferredSales: 0,
        },
      ]);
      expect(await status.reportStates(ALPHA, DAY, DAY)).toEqual([
        { day: DAY, reportNumber: 1, status: "orders missing", difference: 0, ordersMissing: 2 },
      ]);
      expect(await status.reportStates(BRAVO, DAY, DAY)).toEqual([
        { day: DAY, reportNumber: 1, status: "ok", difference: 0, ordersMissing: 0 },
      ]);
    });
  });

  describe("changes", () => {
    it("gives each order change seen, with the items of the version that replaced it", async () => {
      const changes = await reader.changes.orderChanges({ seenSince: AT.firstRunEnd });
      expect(
        changes.map(({ content, ...c }) => ({
          ...c,
          changedAt: instant(c.changedAt),
          seenAt: instant(c.seenAt),
          closedAt: instant(c.closedAt),
          wasCanceled: flag(c.wasCanceled),
          isCanceled: flag(c.isCanceled),
          changedFields: json(c.changedFields),
          version: json(content).orders.order_number,
          nextItems: c.nextItems?.map((i) => ({
            description: i.description,
            total: i.total,
            is_canceled: flag(i.is_canceled),
          })),
        })),
      ).toEqual([
        {
          orderId: ORDER.changed,
          locationId: ALPHA,
          locationName: "Alpha",
          businessDate: DAY,
          orderNumber: "1001",
          fromVersion: 1,
          change: "changed",
          changedAt: "2026-03-03T08:00:00.000Z",
          changedBy: "Ann",
          seenAt: AT.secondRun,
          closedAt: "2026-03-02T11:00:00.000Z",
          previousTotal: 10,
          newTotal: 4,
          previousPaid: 10,
          wasCanceled: false,
          isCanceled: false,
          changedFields: [
            "total",
            "total_discount",
            "order_items[1].is_canceled",
            "order_items[1].cancel_reason",
            "order_item_discounts[1.0] removed",
            "order_payments[0].payment_amount",
          ],
          version: "1001",
          nextItems: [
            { description: "Coffee", total: 4, is_canceled: false },
            { description: "Cake", total: 6, is_canceled: true },
          ],
        },
        {
          orderId: ORDER.vanished,
          locationId: ALPHA,
          locationName: "Alpha",
          businessDate: DAY,
          orderNumber: "1005",
          fromVersion: 1,
          change: "vanished",
          changedAt: null,
          changedBy: null,
          seenAt: AT.secondRun,
          closedAt: "2026-03-02T15:00:00.000Z",
          previousTotal: 3,
          newTotal: null,
          previousPaid: 3,
          wasCanceled: false,
          isCanceled: null,
          changedFields: null,
          version: "1005",
          nextItems: undefined,
        },
      ]);
      expect(
        await reader.changes.orderChanges({ seenSince: AT.firstRunEnd, locationId: BRAVO }),
      ).toEqual([]);
      expect(await reader.changes.orderChanges({ seenSince: AT.secondRunEnd })).toEqual([]);
    });
  });

  describe("the morning report's reads", () => {
    it("gives a location's sales on the days that have any", async () => {
      expect(await reader.report.salesOnDays(ALPHA, [DAY, NEXT_DAY])).toEqual([
        { day: DAY, orders: 2, guests: 4, sales: 24 },
      ]);
    });

    it("lists the day's orders of each kind of exception, with who, how much and when", async () => {
      const exceptions = await reader.report.dayExceptions([ALPHA, BRAVO], DAY);
      const of = (rows: typeof exceptions.paymentsShort) =>
        rows.map((row) => ({ ...row, at: instant(row.at) }));
      const alpha = { locationId: ALPHA };
      expect({
        cancelledAfterPayment: of(exceptions.cancelledAfterPayment),
        voidedAfterClose: of(exceptions.voidedAfterClose),
        paymentsShort: of(exceptions.paymentsShort),
        trainingWithPayments: of(exceptions.trainingWithPayments),
        changedAfterReport: of(exceptions.changedAfterReport),
      }).toEqual({
        cancelledAfterPayment: [
          {
            ...alpha,
            orderNumber: "1003",
            operatorName: "Bob",
            amount: 5,
            at: "2026-03-02T13:00:00.000Z",
            detail: "mistake",
            paid: null,
          },
        ],
        voidedAfterClose: [
          {
            ...alpha,
            orderNumber: "1001",
            operatorName: "Ann",
            amount: 6,
            at: "2026-03-03T08:00:00.000Z",
            detail: "Cake",
            paid: null,
          },
        ],
        paymentsShort: [
          {
            ...alpha,
            orderNumber: "1002",
            operatorName: "Bob",
            amount: 20,
            at: "2026-03-02T12:00:00.000Z",
            detail: null,
            paid: 15,
          },
        ],
        trainingWithPayments: [
          {
            ...alpha,
            orderNumber: "1004",
            operatorName: "Ann",
            amount: 8,
            at: "2026-03-02T14:00:00.000Z",
            detail: null,
            paid: null,
          },
        ],
        changedAfterReport: [
          {
            ...alpha,
            orderNumber: "1001",
            operatorName: "Ann",
            amount: 4,
            at: "2026-03-03T08:00:00.000Z",
            detail: "600",
            paid: null,
          },
        ],
      });
      const none = await reader.report.dayExceptions([BRAVO], DAY);
      expect(Object.values(none).flat()).toEqual([]);
    });

    it("gives each operator's discounts and sales, the reports that do not reconcile, and the day's health", async () => {
      const { report } = reader;
      const discounts = await report.discountsByOperator([ALPHA], DAY, DAY);
      expect(discounts.sort((a, b) => a.operatorName.localeCompare(b.operatorName))).toEqual([
        {
          locationId: ALPHA,
          operatorId: OPERATOR.ann,
          operatorName: "Ann",
          discounts: 0,
          sales: 4,
        },
        {
          locationId: ALPHA,
          operatorId: OPERATOR.bob,
          operatorName: "Bob",
          discounts: 2,
          sales: 20,
        },
      ]);
      expect(await report.unreconciledReports([ALPHA, BRAVO], DAY)).toEqual([
        {
          locationId: ALPHA,
          reportNumber: 1,
          difference: 0,
          ordersMissing: 2,
          status: "orders missing",
        },
      ]);
      const health = await report.dayHealth(ALPHA, DAY);
      expect({
        ...health,
        windows: health.windows.map((w) => ({ ...w, provedAt: instant(w.provedAt) })),
      }).toEqual({
        windows: [
          { stream: "orders", status: "complete", provedAt: AT.secondRun },
          { stream: "reports", status: "complete", provedAt: AT.secondRun },
        ],
        repairs: 1,
        rejects: 1,
      });
      expect(await report.dayHealth(BRAVO, NEXT_DAY)).toEqual({
        windows: [],
        repairs: 0,
        rejects: 0,
      });
    });
  });

  describe("queries", () => {
    it("runs an analyst's SQL as written, its columns named as it names them", async () => {
      expect(
        await reader.queries.runQuery(
          "SELECT order_number AS number, total FROM v_orders ORDER BY order_number",
        ),
      ).toEqual({
        columns: ["number", "total"],
        rows: [
          ["1001", 4],
          ["1002", 20],
          ["1003", 5],
          ["1004", 8],
          ["2001", 7],
        ],
      });
    });
  });

  describe("the views' date-times", () => {
    it("shows each one on the location's wall clock and in UTC, in SQLite's own text on both", async () => {
      const time = (day: string, clock: string) => `${day} ${clock}.000`;
      expect(
        await reader.queries.runQuery(
          "SELECT order_number, closed_at, closed_at_utc FROM v_orders ORDER BY order_number",
        ),
      ).toEqual({
        columns: ["order_number", "closed_at", "closed_at_utc"],
        rows: [
          ["1001", time(DAY, "12:00:00"), time(DAY, "11:00:00")],
          ["1002", time(DAY, "13:00:00"), time(DAY, "12:00:00")],
          ["1003", time(DAY, "14:00:00"), time(DAY, "13:00:00")],
          ["1004", time(DAY, "15:00:00"), time(DAY, "14:00:00")],
          ["2001", time(DAY, "12:00:00"), time(DAY, "10:00:00")],
        ],
      });
      // Seen by the second run (05:00 UTC), on the clock the API last wrote for the order (+01:00).
      const changes = await reader.queries.runQuery(
        `SELECT order_number, change, changed_at, changed_at_utc, seen_at, seen_at_utc
         FROM v_order_changes WHERE change = 'changed' ORDER BY order_number`,
      );
      expect(changes.rows).toEqual([
        [
          "1001",
          "changed",
          time(NEXT_DAY, "09:00:00"),
          time(NEXT_DAY, "08:00:00"),
          time(AT.secondRun.slice(0, 10), "06:00:00"),
          time(AT.secondRun.slice(0, 10), "05:00:00"),
        ],
      ]);
    });
  });

  describe("turns", () => {
    it(
      kind === "postgres"
        ? "gives who syncs each location and who last did"
        : "has none where one writer holds the database",
      async () => {
        if (kind === "sqlite") {
          expect(reader.turns).toBeUndefined();
          return;
        }
        expect(await reader.turns?.locationTurns()).toEqual([
          {
            key: KEYS.alpha,
            heldBy: null,
            heldSince: null,
            lastDoneBy: `${hostname()}:${process.pid}`,
            lastDoneAt: expect.anything(),
          },
        ]);
      },
    );
  });

  describe("the messages' reads and stores", () => {
    const t = (minutes: number) =>
      new Date(Date.parse("2026-03-04T06:00:00.000Z") + minutes * 60_000);
    const expired = (at: Date) => new Date(at.getTime() - 6 * 60_000);
    const KEY = `${NEXT_DAY} Europe/Paris`;
    const owed = (recipient: string, channel = "e-mail"): NewDelivery => ({
      kind: "morning report",
      key: KEY,
      channel,
      recipient,
      subject: "Morning report",
      body: JSON.stringify({ text: "the report" }),
    });
    let deliveries: DeliveryStore;
    let alerts: AlertStore;
    let ids: number[];

    beforeAll(() => {
      ({ deliveries, alerts } = hold.messages());
    });

    it("gives the recent runs' outcomes and when each location's orders were last read", async () => {
      const outcomes = await reader.messages.recentRunOutcomes(5);
      expect(outcomes.map((o) => ({ ...o, startedAt: instant(o.startedAt) }))).toEqual([
        { status: "failed", startedAt: AT.secondRun, error: "Charlie: the API refused the key" },
        { status: "succeeded", startedAt: AT.firstRun, error: null },
      ]);
      const read = await reader.messages.lastOrdersReadAt();
      expect(
        read
          .map((r) => ({ ...r, at: instant(r.at) }))
          .sort((a, b) => a.locationId.localeCompare(b.locationId)),
      ).toEqual([
        { locationId: ALPHA, at: AT.secondRun },
        { locationId: BRAVO, at: AT.firstRun },
      ]);
    });

    it("records a message once per recipient, and finds it by kind and key or its key's start", async () => {
      expect(await reader.messages.deliveryState(t(0))).toEqual({
        lastReport: null,
        waiting: 0,
        firstWaiting: [],
        failed: 0,
        retired: 0,
        lastUndelivered: [],
        openAlerts: [],
      });
      const both = [owed("owner@example.com"), owed("https://hooks.example.com/x", "webhook")];
      expect(await deliveries.record(both, t(0))).toBe(2);
      expect(await deliveries.record(both, t(0))).toBe(0);
      expect(
        (await deliveries.recordedFor("morning report", KEY)).sort((a, b) =>
          a.channel.localeCompare(b.channel),
        ),
      ).toEqual([
        { channel: "e-mail", recipient: "owner@example.com" },
        { channel: "webhook", recipient: "https://hooks.example.com/x" },
      ]);
      expect(await deliveries.recordedFor("alert", KEY)).toEqual([]);
      const recorded = await deliveries.recordedWithPrefix("morning report", `${NEXT_DAY} `);
      ids = recorded.map((r) => Number(r.id));
      expect(
        recorded.map((r) => ({ ...r, id: Number(r.id), nextAttemptAt: instant(r.nextAttemptAt) })),
      ).toEqual([
        {
          id: ids[0],
          key: KEY,
          channel: "e-mail",
          recipient: "owner@example.com",
          status: "waiting",
          sentAt: null,
          nextAttemptAt: t(0).toISOString(),
          lastError: null,
        },
        {
          id: ids[1],
          key: KEY,
          channel: "webhook",
          recipient: "https://hooks.example.com/x",
          status: "waiting",
          sentAt: null,
          nextAttemptAt: t(0).toISOString(),
          lastError: null,
        },
      ]);
      expect(await deliveries.recordedWithPrefix("morning report", `${DAY} `)).toEqual([]);
      expect(await deliveries.waitingRecipients()).toEqual([
        { channel: "e-mail", recipient: "owner@example.com" },
        { channel: "webhook", recipient: "https://hooks.example.com/x" },
      ]);
    });

    it("lets one process claim a due message, and settles it sent, later or failed for good by its holder", async () => {
      const [mail, hook] = ids as [number, number];
      const dueIds = async (at: Date, afterId = 0) =>
        (await deliveries.due(at, expired(at), 10, afterId)).map((d) => Number(d.id));
      expect(await dueIds(t(0))).toEqual([mail, hook]);
      expect(await dueIds(t(0), mail)).toEqual([hook]);
      const [first] = await deliveries.due(t(0), expired(t(0)), 1);
      expect(first).toMatchObject({ kind: "morning report", key: KEY, subject: "Morning report" });
      expect(JSON.parse(String(first?.body))).toEqual({ text: "the report" });

      expect(await deliveries.claim(mail, "a:1", t(0), expired(t(0)))).toBe(1);
      expect(await deliveries.claim(mail, "b:2", t(0), expired(t(0)))).toBeUndefined();
      expect(await dueIds(t(0))).toEqual([hook]);
      await deliveries.sent(mail, t(1));

      expect(await deliveries.claim(hook, "a:1", t(1), expired(t(1)))).toBe(1);
      // Only the holder settles a failure.
      await deliveries.retryLater(hook, "b:2", t(30), "not the holder");
      await deliveries.retryLater(hook, "a:1", t(2), "answered 503");
      expect(await dueIds(t(1))).toEqual([]);
      const state = await reader.messages.deliveryState(t(1));
      expect({
        ...state,
        lastReport: { ...state.lastReport, sentAt: instant(state.lastReport?.sentAt) },
        firstWaiting: state.firstWaiting.map((w) => ({
          ...w,
          nextAttemptAt: instant(w.nextAttemptAt),
          createdAt: instant(w.createdAt),
        })),
      }).toEqual({
        lastReport: { key: KEY, sentAt: t(1).toISOString(), recipients: ["owner@example.com"] },
        waiting: 1,
        firstWaiting: [
          {
            kind: "morning report",
            key: KEY,
            channel: "webhook",
            recipient: "https://hooks.example.com/x",
            attempts: 1,
            nextAttemptAt: t(2).toISOString(),
            lastError: "answered 503",
            createdAt: t(0).toISOString(),
          },
        ],
        failed: 0,
        retired: 0,
        lastUndelivered: [],
        openAlerts: [],
      });

      expect(await dueIds(t(2))).toEqual([hook]);
      expect(await deliveries.claim(hook, "a:1", t(2), expired(t(2)))).toBe(2);
      await deliveries.failedForGood(hook, "b:2", t(2), "not the holder");
      await deliveries.failedForGood(hook, "a:1", t(3), "answered 404");
      const ended = await deliveries.recordedWithPrefix("morning report", `${NEXT_DAY} `);
      expect(
        ended.map((r) => ({ status: r.status, sentAt: instant(r.sentAt), error: r.lastError })),
      ).toEqual([
        { status: "sent", sentAt: t(1).toISOString(), error: null },
        { status: "failed", sentAt: null, error: "answered 404" },
      ]);
      expect(await deliveries.waitingRecipients()).toEqual([]);
    });

    it("retires what waits for a recipient the settings no longer name, and says what ended unsent", async () => {
      const alert = { ...owed("gone@example.com"), kind: "alert" as const, key: "1 open" };
      expect(await deliveries.record([alert], t(4))).toBe(1);
      expect(
        await deliveries.retire(
          { channel: "e-mail", recipient: "gone@example.com" },
          t(5),
          "no longer named",
        ),
      ).toBe(1);
      expect(
        await deliveries.retire(
          { channel: "e-mail", recipient: "gone@example.com" },
          t(5),
          "again",
        ),
      ).toBe(0);
      const state = await reader.messages.deliveryState(t(6));
      expect(state).toMatchObject({ waiting: 0, failed: 1, retired: 1 });
      expect(state.lastUndelivered.map((u) => ({ ...u, endedAt: instant(u.endedAt) }))).toEqual([
        {
          kind: "alert",
          key: "1 open",
          channel: "e-mail",
          recipient: "gone@example.com",
          status: "retired",
          attempts: 0,
          endedAt: t(5).toISOString(),
          reason: "no longer named",
        },
        {
          kind: "morning report",
          key: KEY,
          channel: "webhook",
          recipient: "https://hooks.example.com/x",
          status: "failed",
          attempts: 2,
          endedAt: t(3).toISOString(),
          reason: "answered 404",
        },
      ]);
      // Eight days on, what ended unsent is no longer shown.
      expect(await reader.messages.deliveryState(t(8 * 24 * 60))).toMatchObject({
        failed: 0,
        retired: 0,
        lastUndelivered: [],
      });
    });

    it("opens an alert once and closes it once, and lists it open and then closed", async () => {
      const opened = await alerts.open("sync failing", "chain", "3 runs failed", t(10));
      expect(
        opened && { ...opened, id: Number(opened.id), openedAt: instant(opened.openedAt) },
      ).toEqual({
        id: expect.any(Number),
        kind: "sync failing",
        subject: "chain",
        detail: "3 runs failed",
        openedAt: t(10).toISOString(),
      });
      expect(await alerts.open("sync failing", "chain", "again", t(11))).toBeUndefined();
      const open = await reader.messages.openAlerts();
      expect(open.map((a) => ({ ...a, id: Number(a.id), openedAt: instant(a.openedAt) }))).toEqual([
        { ...opened, id: Number(opened?.id), openedAt: t(10).toISOString() },
      ]);
      expect((await reader.messages.deliveryState(t(11))).openAlerts).toHaveLength(1);

      const id = Number(opened?.id);
      const closed = await alerts.close(id, "a run succeeded", t(20));
      expect(closed).toMatchObject({ kind: "sync failing", resolution: "a run succeeded" });
      expect(instant(closed?.closedAt)).toBe(t(20).toISOString());
      expect(await alerts.close(id, "again", t(21))).toBeUndefined();
      expect(await reader.messages.openAlerts()).toEqual([]);
      const since = await alerts.closedSince(t(15));
      expect(since.map((a) => ({ id: Number(a.id), resolution: a.resolution }))).toEqual([
        { id, resolution: "a run succeeded" },
      ]);
      expect(await alerts.closedSince(t(21))).toEqual([]);
      // Closed, it may open again.
      expect(await alerts.open("sync failing", "chain", "failing again", t(30))).toMatchObject({
        detail: "failing again",
      });
    });
  });
});
