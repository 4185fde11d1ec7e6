import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../src/api/schemas.js";
import { longDay } from "../src/clock/day-names.js";
import { addDays, eachDay } from "../src/clock/days.js";
import { openReadableDestination } from "../src/commands/common.js";
import { loadConfig } from "../src/config/config.js";
import type { Reader } from "../src/db/reads/reader.js";
import type { ExceptionKind } from "../src/morning-report/exceptions.js";
import { collectMorningReport, type MorningReport } from "../src/morning-report/morning-report.js";
import { reportMessage } from "../src/morning-report/report-message.js";
import { type Simulator, startSimulator } from "../src/simulator/server.js";
import { runCli } from "./helpers/cli.js";
import { closedPort } from "./helpers/closed-port.js";
import { useTempDir } from "./helpers/db.js";
import { type TestDestination, useDestinations } from "./helpers/destinations.js";
import { startMailServer } from "./helpers/mail-server.js";
import { paid, ServedVersions } from "./helpers/served-versions.js";
import { SMALL_DATASET } from "./helpers/simulator.js";
import { syncEach } from "./helpers/sync.js";
import { startWebhookReceiver } from "./helpers/webhook-receiver.js";

const destinations = useDestinations();
const tempPath = useTempDir();
let simulator: Simulator;
let into: TestDestination;
let onPostgres: TestDestination;
let reader: Reader;
let postgres: Reader | undefined;
const served = new ServedVersions();

const isSale = (o: Order) => !o.isCanceled && o.isTraining !== true && !o.isTransferred;
const cents = (amount: number) => Math.round(amount * 100);

async function syncNow(): Promise<void> {
  const { dataset } = simulator;
  served.observe(dataset, { since: dataset.firstDay, until: dataset.today });
  await syncEach(simulator, [into, onPostgres]);
}

beforeAll(async () => {
  // Four times the default change rate (as test/loss-prevention.test.ts): every kind of change
  // falls between two syncs on some day.
  simulator = await startSimulator({
    ...SMALL_DATASET,
    seed: 73,
    ordersPerDay: [80, 140],
    changeRate: 4,
  });
  into = await destinations.fresh("sqlite");
  onPostgres = await destinations.fresh("postgres");
  await syncNow();
  for (let round = 0; round < 3; round++) {
    simulator.dataset.advanceDay();
    simulator.dataset.applyLateUpdates(8, 3);
    await syncNow();
  }
  reader = await openReadableDestination(loadConfig({ env: into.env, needsApi: false }));
}, 240_000);

afterAll(async () => {
  await postgres?.close();
  await reader?.close();
  await simulator?.close();
});

/** The PostgreSQL copy's reader, opened once. */
async function postgresReader(): Promise<Reader> {
  postgres ??= await openReadableDestination(loadConfig({ env: onPostgres.env, needsApi: false }));
  return postgres;
}

/**
 * Runs `check` with rows of a table changed behind pos-sync's back on both databases (`SET …`
 * where `WHERE …`), then puts the columns it set back as they were, for the tests after it.
 */
async function onBoth(
  edit: { table: string; set: string; where: string; params: unknown[] },
  check: () => Promise<void>,
): Promise<void> {
  const { table, set, where, params } = edit;
  const columns = [...set.matchAll(/(\w+) = /g)].map((m) => m[1] as string);
  const stores = await Promise.all([into.stored(), onPostgres.stored()]);
  const before = await Promise.all(
    stores.map((stored) =>
      stored.rows(`SELECT ${columns.join(", ")} FROM ${table} WHERE ${where}`, ...params),
    ),
  );
  for (const [i, stored] of stores.entries()) {
    expect(before[i], `the ${table} rows to edit`).toHaveLength(1);
    await stored.execute(`UPDATE ${table} SET ${set} WHERE ${where}`, ...params);
  }
  try {
    await check();
  } finally {
    for (const [i, stored] of stores.entries()) {
      const [row] = before[i] ?? [];
      if (row === undefined) continue;
      await stored.execute(
        `UPDATE ${table} SET ${columns.map((c) => `${c} = ?`).join(", ")} WHERE ${where}`,
        ...columns.map((c) => row[c]),
        ...params,
      );
    }
  }
}

/** Each order listed now, where the API lists it, and every version served (the last is current). */
function currentOrders() {
  return served.current().map(([id, versions]) => ({
    id,
    versions,
    now: versions.at(-1) as Order,
    place: served.placeOf.get(id) as { locationId: string; day: string },
  }));
}

/** What the served data says each kind of exception holds: `location day kind order`. */
function expectedExceptions(days: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const { versions, now, place } of currentOrders()) {
    if (!days.has(place.day)) continue;
    const add = (kind: ExceptionKind) =>
      found.push(`${place.locationId} ${place.day} ${kind} ${now.orderNumber}`);
    const seenPaid = versions.slice(0, -1).some((v) => !v.isCanceled && paid(v) > 0);
    if (now.isCanceled && now.isTraining !== true && (seenPaid || paid(now) > 0))
      add("cancelled after payment");
    if (isSale(now) && cents(paid(now)) < cents(now.total)) add("paid short");
    if (now.isTraining === true && paid(now) > 0) add("training order paid");
    const location = simulator.dataset.locations.find((l) => l.location.id === now.locationId);
    const report = location && simulator.dataset.report(location, now.reportId);
    if (report && Date.parse(now.updatedAt) > Date.parse(report.finalizedAt))
      add("changed after the report");
    // Lines that stood in the first version served and no longer do, by product.
    const standing = (order: Order) => {
      const count = new Map<string, number>();
      for (const item of order.items.filter((i) => !i.isCanceled))
        count.set(item.itemCatalogId, (count.get(item.itemCatalogId) ?? 0) + 1);
      return count;
    };
    const after = standing(now);
    for (const [product, n] of standing(versions[0] as Order))
      for (let k = after.get(product) ?? 0; k < n; k++) add("item voided after close");
  }
  return found.sort();
}

const COMPARED: readonly ExceptionKind[] = [
  "cancelled after payment",
  "item voided after close",
  "paid short",
  "training order paid",
  "changed after the report",
];

describe("the morning report", () => {
  it("lists every planted exception of each day under its kind, with who and how much, and nothing else", async () => {
    const days = eachDay(
      addDays(simulator.dataset.today, -10),
      addDays(simulator.dataset.today, -1),
    );
    const listed: string[] = [];
    for (const day of days) {
      const report = await collectMorningReport(reader, { day });
      for (const location of report.locations) {
        for (const exception of location.exceptions) {
          expect(exception.amount, exception.kind).toEqual(expect.any(Number));
          if (exception.kind !== "report does not reconcile")
            expect(exception.employee, exception.kind).toEqual(expect.any(String));
          if (COMPARED.includes(exception.kind))
            listed.push(`${location.locationId} ${day} ${exception.kind} ${exception.orderNumber}`);
        }
      }
    }
    const expected = expectedExceptions(new Set(days));
    for (const kind of COMPARED)
      expect(
        expected.some((e) => e.includes(kind)),
        kind,
      ).toBe(true);
    expect(listed.sort()).toEqual(expected);
  });

  it("gives each location's day as v_daily_sales has it, against the same weekday of four weeks", async () => {
    const day = addDays(simulator.dataset.today, -1);
    const report = await collectMorningReport(reader, { day });
    expect(report.locations).toHaveLength(simulator.dataset.locations.length);
    for (const location of report.locations) {
      const [row] = await reader.report.salesOnDays(location.locationId, [day]);
      expect(location.figures).toMatchObject({
        sales: row?.sales,
        orders: row?.orders,
        guests: row?.guests,
      });
      const weeks = (
        await reader.report.salesOnDays(
          location.locationId,
          [1, 2, 3, 4].map((w) => addDays(day, -7 * w)),
        )
      ).filter((w) => w.sales > 0);
      expect(location.usualWeeks).toBe(weeks.length);
      if (weeks.length > 0) {
        const mean = weeks.reduce((sum, w) => sum + w.sales, 0) / weeks.length;
        expect(location.usual?.sales).toBeCloseTo(mean, 2);
      }
      expect(location.health).toMatchObject({ complete: true, gaps: [] });
    }
  });

  it("is the same report on PostgreSQL, the same data synced there", async () => {
    const postgres = await openReadableDestination(
      loadConfig({ env: onPostgres.env, needsApi: false }),
    );
    try {
      for (const day of eachDay(addDays(simulator.dataset.today, -3), simulator.dataset.today)) {
        const [fromSqlite, fromPostgres] = await Promise.all(
          [reader, postgres].map(async (from) => {
            const {
              generatedAt: _at,
              lastSuccessAt: _last,
              ...report
            } = await collectMorningReport(from, { day });
            return report;
          }),
        );
        expect(fromPostgres, day).toEqual(fromSqlite);
      }
    } finally {
      await postgres.close();
    }
  });

  it("leaves a prior weekday of no sales out of the usual, on SQLite and PostgreSQL", async () => {
    // The location's completed day with the most prior weekdays stored, from the data: how many
    // there are depends on the day the suite runs.
    const candidates = await Promise.all(
      eachDay(addDays(simulator.dataset.today, -7), addDays(simulator.dataset.today, -1)).map(
        async (day) => (await collectMorningReport(reader, { day })).locations,
      ),
    );
    const [chosen] = candidates.flat().sort((a, b) => b.usualWeeks - a.usualWeeks);
    if (chosen === undefined || chosen.usualWeeks === 0) throw new Error("no day has a usual");
    const { locationId, day } = chosen;
    const weeks = (
      await reader.report.salesOnDays(
        locationId,
        [1, 2, 3, 4].map((w) => addDays(day, -7 * w)),
      )
    ).filter((w) => w.sales > 0);
    const [zeroed, ...kept] = weeks;
    // What a day of only training orders leaves in daily_sales: its row, with no sales.
    await onBoth(
      {
        table: "daily_sales",
        set: `training_orders = training_orders + orders, orders = 0, guests = 0,
          total_sales = 0, net_sales = 0, total_tax = 0, total_discount = 0`,
        where: "location_id = ? AND CAST(business_date AS TEXT) = ?",
        params: [locationId, zeroed?.day],
      },
      async () => {
        for (const from of [reader, await postgresReader()]) {
          const report = await collectMorningReport(from, { day, location: locationId });
          const [location] = report.locations;
          expect(location?.usualWeeks).toBe(chosen.usualWeeks - 1);
          if (kept.length === 0) expect(location?.usual).toBeNull();
          else
            expect(location?.usual?.sales).toBeCloseTo(
              kept.reduce((sum, w) => sum + w.sales, 0) / kept.length,
              2,
            );
        }
      },
    );
  });

  it("says in its subject that a location's day is not read, and sums only the read ones", async () => {
    const day = addDays(simulator.dataset.today, -1);
    const [unread, read] = simulator.dataset.locations.map((l) => l.location);
    if (unread === undefined || read === undefined) throw new Error("two locations expected");
    // What a backfill killed before it read the day's orders leaves.
    await onBoth(
      {
        table: "sync_windows",
        set: "status = 'failed'",
        where: "location_id = ? AND day = ? AND stream = 'orders'",
        params: [unread.id, day],
      },
      async () => {
        for (const from of [reader, await postgresReader()]) {
          const report = await collectMorningReport(from, { day });
          const { subject, text } = reportMessage(report);
          expect(subject).toBe(
            `Morning report, ${longDay(day)}, incomplete: 1 of 2 locations read${report.chain.exceptions > 0 ? `; ${report.chain.exceptions} exception(s) so far` : ""}`,
          );
          const readFigures = report.locations.find((l) => l.locationId === read.id)?.figures;
          expect(report.chain.figures).toEqual(readFigures);
          expect(text).toContain(`${unread.name}, ${longDay(day)}: NOT read in full`);
          expect(text).toContain("data NOT complete (orders: failed)");
        }
      },
    );
  });

  it("says plainly that a day still open is not complete", async () => {
    const report = await collectMorningReport(reader, { day: simulator.dataset.today });
    for (const location of report.locations) {
      expect(location.health.complete).toBe(false);
      expect(location.health.gaps).toContain("orders: open");
    }
  });
});

describe("pos-sync report --send", () => {
  const day = () => addDays(simulator.dataset.today, -1);
  const reportFor = async (): Promise<MorningReport> =>
    collectMorningReport(reader, { day: day() });

  it("delivers an e-mail (text and HTML) to each recipient and one webhook naming every location with its sales", async () => {
    const mail = await startMailServer();
    const hook = await startWebhookReceiver();
    try {
      const result = await runCli(["report", "--day", day(), "--send"], {
        ...into.env,
        POS_REPORT_SMTP_URL: mail.url,
        POS_REPORT_FROM: "pos-sync <reports@example.com>",
        POS_REPORT_TO: "owner@example.com, manager@example.com",
        POS_REPORT_WEBHOOK_URL: hook.url,
      });
      expect(result.code, result.stderr).toBe(0);
      const message = await mail.next();
      const posted = await hook.next();
      expect(mail.received).toHaveLength(2);
      expect(mail.envelopes.map((e) => e.to).sort()).toEqual([
        ["manager@example.com"],
        ["owner@example.com"],
      ]);
      expect(message.subject).toContain(longDay(day()));
      const report = await reportFor();
      const text = String(message.text);
      const html = String(message.html);
      const body = JSON.parse(posted.body) as { text: string; report: { days: string[] } };
      expect(body.report.days).toEqual([day()]);
      for (const location of report.locations) {
        const sales = new Intl.NumberFormat(
          new Intl.Locale(`und-${location.country}`).maximize().toString(),
          { minimumFractionDigits: 2, maximumFractionDigits: 2 },
        ).format(location.figures.sales);
        for (const part of [text, html, body.text]) {
          expect(part).toContain(location.name);
          expect(part).toContain(sales);
        }
      }
      expect(html).not.toMatch(/<img|src=|href="http|url\(/i);
      expect(result.stdout).toContain("  owner@example.com by e-mail: sent\n");
    } finally {
      await mail.close();
      await hook.close();
    }
  });

  it("exits 1 naming the mail server when it cannot be reached, keeps the e-mail in the outbox, and still posts the webhook", async () => {
    const hook = await startWebhookReceiver();
    try {
      const port = await closedPort();
      // A recipient of its own: the database keeps what the test before sent.
      const result = await runCli(["report", "--day", day(), "--send"], {
        ...into.env,
        POS_REPORT_SMTP_URL: `smtp://reports:s3cret-pw@127.0.0.1:${port}`,
        POS_REPORT_FROM: "reports@example.com",
        POS_REPORT_TO: "accounts@example.com",
        POS_REPORT_WEBHOOK_URL: hook.url,
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toContain(
        "1 message could not be delivered now and waits in the outbox",
      );
      expect(result.stdout).toContain(
        `accounts@example.com by e-mail: not delivered now: it waits in the outbox (e-mail: cannot reach the mail server 127.0.0.1:${port}`,
      );
      expect(result.stderr + result.stdout).not.toContain("s3cret-pw");
      expect(hook.received).toHaveLength(1);
    } finally {
      await hook.close();
    }
  });

  it("refuses a malformed recipient in one line before reading anything (exit 2)", async () => {
    const result = await runCli(["report", "--send"], {
      ...into.env,
      POS_REPORT_SMTP_URL: "smtp://127.0.0.1:25",
      POS_REPORT_FROM: "reports@example.com",
      POS_REPORT_TO: "not an address",
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("POS_REPORT_TO");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("writes the report as a page with --html, and never over the database", async () => {
    const page = `${tempPath()}.html`;
    const written = await runCli(["report", "--day", day(), "--html", page], into.env);
    expect(written.code, written.stderr).toBe(0);
    const html = readFileSync(page, "utf8");
    for (const location of (await reportFor()).locations) expect(html).toContain(location.name);
    const refused = await runCli(["report", "--html", into.env.POS_DB_PATH as string], into.env);
    expect(refused.code).toBe(2);
  });
});
