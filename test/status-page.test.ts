/**
 * The data behind the status page, on both destinations: calendar cells from the checkpoints,
 * the latest runs with their retries and errors, sales per day against what the simulator
 * served, the reports' reconciliation, and whether the last success is late for the schedule.
 * Then the page as HTML: escaped, self-contained, with no key on it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, eachDay, toEpochDay } from "../src/clock/days.js";
import { describeSchedule, scheduledTimesBetween } from "../src/clock/schedule-times.js";
import { openReadableDestination } from "../src/commands/common.js";
import { loadConfig } from "../src/config/config.js";
import type { Reader } from "../src/db/reads/reader.js";
import { type CoverageWindow, coverageCalendar } from "../src/read-models/coverage.js";
import {
  collectStatusPage,
  LATE_GRACE_MS,
  SALES_DAYS,
  type StatusPageData,
} from "../src/read-models/status-page.js";
import { keyFingerprint } from "../src/secrets.js";
import { type Simulator, startSimulator } from "../src/simulator/server.js";
import { renderStatusPage } from "../src/ui/status-page/page.js";
import {
  DESTINATION_KINDS,
  type DestinationKind,
  useDestinations,
} from "./helpers/destinations.js";
import { SMALL_DATASET } from "./helpers/simulator.js";
import {
  BACKFILL_RATE_LIMITS,
  BACKFILL_SERVER_ERRORS,
  backfillWithRetries,
  rejectStoredKey,
  syncWithTrouble,
  type TroubledSync,
} from "./helpers/status-page-scenario.js";

const window = (day: string, status: string, counts?: [number, number]): CoverageWindow => ({
  day,
  status,
  last_error: status === "complete" ? null : `why ${day}`,
  api_total_count: counts?.[0] ?? null,
  stored_count: counts?.[1] ?? null,
});

describe("the coverage calendar", () => {
  it("gives one cell a day from the first window to today, never-read days as missing", () => {
    const calendar = coverageCalendar(
      "orders",
      [window("2026-03-10", "complete", [5, 5]), window("2026-03-12", "incomplete", [7, 6])],
      new Map([["2026-03-10", 2]]),
      "2026-03-13",
    );
    expect(calendar.days.map((d) => [d.day, d.coverage])).toEqual([
      ["2026-03-10", "complete"],
      ["2026-03-11", "missing"],
      ["2026-03-12", "incomplete"],
      ["2026-03-13", "missing"],
    ]);
    expect(calendar.days[0]).toMatchObject({ apiCount: 5, storedCount: 5, rejected: 2 });
    expect(calendar.days[2]).toMatchObject({
      apiCount: 7,
      storedCount: 6,
      error: "why 2026-03-12",
    });
  });

  it("leaves out days after the location's today, and reads an unknown state as not proven", () => {
    const calendar = coverageCalendar(
      "reports",
      [window("2026-03-12", "reread-later"), window("2026-03-14", "complete")],
      new Map(),
      "2026-03-13",
    );
    expect(calendar.days.map((d) => d.coverage)).toEqual(["incomplete", "missing"]);
    expect(coverageCalendar("reports", [], new Map(), "2026-03-13").days).toEqual([]);
  });
});

describe("the schedule's times between two moments", () => {
  // Local times: node-cron reads a schedule on the process's clock.
  const local = (day: number, hour: number, minute = 0, second = 0) =>
    new Date(2026, 10, day, hour, minute, second);

  it("skips a weekday schedule's weekend, so that a Friday's last success is not late on Sunday", () => {
    // Friday 20 November 2026, 17:00:05 to Monday 23, 10:00.
    expect(scheduledTimesBetween("0 9-17 * * 1-5", local(20, 17, 0, 5), local(23, 10), 5)).toEqual([
      local(23, 9),
      local(23, 10),
    ]);
    expect(scheduledTimesBetween("0 9-17 * * 1-5", local(20, 17, 0, 5), local(22, 23), 5)).toEqual(
      [],
    );
  });

  it("gives at most as many times as asked, seconds included, and none for a bad expression", () => {
    expect(scheduledTimesBetween("*/15 * * * *", local(24, 10, 0, 5), local(24, 12), 2)).toEqual([
      local(24, 10, 15),
      local(24, 10, 30),
    ]);
    expect(
      scheduledTimesBetween("*/20 * * * * *", local(24, 10, 0, 5), local(24, 10, 1), 9),
    ).toEqual([local(24, 10, 0, 20), local(24, 10, 0, 40), local(24, 10, 1)]);
    expect(scheduledTimesBetween("not a schedule", local(1, 0), local(24, 0), 2)).toEqual([]);
  });
});

describe("the schedule in words", () => {
  it("says the common patterns as a person would, and leaves the others as cron text", () => {
    const words = (schedule: string) => describeSchedule(schedule);
    expect(words("*/15 * * * *")).toBe("every 15 minutes");
    expect(words("* * * * *")).toBe("every minute");
    expect(words("*/20 * * * * *")).toBe("every 20 seconds");
    expect(words("0 */15 * * * *")).toBe("every 15 minutes");
    expect(words("0 * * * *")).toBe("every hour, on the hour");
    expect(words("5 * * * *")).toBe("every hour at :05");
    expect(words("0 */2 * * *")).toBe("every 2 hours, on the hour");
    // Named hours are the daemon's clock (node-cron's), not the locations'.
    expect(words("30 3 * * *")).toBe("every day at 03:30 server time");
    expect(words("0 6 * * 1-5")).toBe("at 06:00 server time on weekdays");
    expect(words("0 9-17 * * 1-5")).toBe("every hour from 09:00 to 17:00 server time on weekdays");
    expect(words("0 0 1 1 *")).toBeUndefined();
    expect(words("0 3 * * MON")).toBeUndefined();
    expect(words("not a schedule")).toBeUndefined();
  });
});

const destinations = useDestinations();
let simulator: Simulator;
const pages = new Map<DestinationKind, { data: StatusPageData; trouble: TroubledSync }>();

/** Noon on the simulator's today, when the syncs ran (their clock is the simulator's). */
const simulatorNoon = () => new Date(`${simulator.dataset.today}T12:00:00.000Z`);

async function readPage(
  env: Record<string, string>,
  now: Date,
  schedule = "*/15 * * * *",
): Promise<StatusPageData> {
  const reader: Reader = await openReadableDestination(loadConfig({ env, needsApi: false }));
  try {
    return await collectStatusPage(reader, { schedule, now });
  } finally {
    await reader.close();
  }
}

const envs = new Map<DestinationKind, Record<string, string>>();

beforeAll(async () => {
  simulator = await startSimulator({ ...SMALL_DATASET, seed: 19, changeRate: 0 });
  for (const kind of DESTINATION_KINDS) {
    const into = await destinations.fresh(kind);
    const destination = await into.open();
    let trouble: TroubledSync;
    // The simulator's noon, ticking: runs take the time they take.
    const startedAt = Date.now();
    const now = () => new Date(simulatorNoon().getTime() + Date.now() - startedAt);
    try {
      trouble = await syncWithTrouble(simulator, destination, { now });
    } finally {
      await destination.close();
    }
    envs.set(kind, into.env);
    pages.set(kind, { data: await readPage(into.env, now()), trouble });
  }
}, 180_000);

afterAll(async () => {
  await destinations.closeReaders();
  await simulator?.close();
});

function pageOf(kind: DestinationKind) {
  const page = pages.get(kind);
  if (!page) throw new Error(`no page for ${kind}`);
  return page;
}

function locationIdOfKey(key: string): string {
  const location = simulator.dataset.locationForKey(key);
  if (!location) throw new Error("unknown key");
  return location.location.id;
}

describe.each(DESTINATION_KINDS)("the status page's data on %s", (kind) => {
  it("shows the incomplete day as incomplete, with what was stored of what the API counted", () => {
    const { data, trouble } = pageOf(kind);
    const locationId = locationIdOfKey(trouble.locationKey);
    for (const location of data.locations) {
      const orders = location.location.streams.find((s) => s.stream === "orders");
      const cells = orders?.calendar ?? [];
      expect(cells[0]?.day).toBe(simulator.dataset.firstDay);
      expect(cells.at(-1)).toMatchObject({ day: simulator.dataset.today, coverage: "open" });
      const notIn = cells.filter((c) => c.coverage !== "complete" && c.coverage !== "open");
      if (location.location.id !== locationId) {
        expect(notIn).toEqual([]);
        continue;
      }
      expect(notIn.map((c) => c.day)).toEqual([trouble.incompleteDay]);
      const cell = notIn[0];
      expect(cell?.coverage).toBe("incomplete");
      expect(cell?.apiCount).toBe((cell?.storedCount ?? 0) + 1);
      expect(cell?.error).toContain(`stored ${cell?.storedCount} of the ${cell?.apiCount}`);
    }
  });

  it("lists the runs newest first: the failure in plain words, the retries and rate limits", () => {
    const { data, trouble } = pageOf(kind);
    expect(data.runs.map((r) => r.status)).toEqual(["failed", "partial", "succeeded"]);
    const [failed, , backfill] = data.runs;
    expect(failed?.error).toBe(trouble.failedError);
    expect(failed?.error).toMatch(/^the API rejected the API key key#[0-9a-f]{8} \(401 on GET /);
    expect(backfill?.rateLimited).toBe(BACKFILL_RATE_LIMITS);
    expect(backfill?.retries).toBe(BACKFILL_RATE_LIMITS + BACKFILL_SERVER_ERRORS);
    expect(backfill?.requests).toBeGreaterThan(BACKFILL_RATE_LIMITS + BACKFILL_SERVER_ERRORS);
    expect(backfill?.durationMs).toBeGreaterThan(0);
    expect(backfill?.durationMs).toBe(
      Date.parse(backfill?.finishedAt ?? "") - Date.parse(backfill?.startedAt ?? ""),
    );
    expect(data.freshness.lastSuccessAt).toBe(backfill?.finishedAt);
  });

  it("charts each day's orders and sales as the simulator served them, cancelled and transferred apart", () => {
    const { data } = pageOf(kind);
    const { dataset } = simulator;
    const round = (n: number) => Math.round(n * 100) / 100;
    for (const key of simulator.keys) {
      const simLocation = dataset.locationForKey(key);
      const page = data.locations.find((l) => l.location.id === simLocation?.location.id);
      expect(page?.sales).toHaveLength(SALES_DAYS);
      expect(page?.sales.at(-1)?.day).toBe(dataset.today);
      for (const day of page?.sales ?? []) {
        const served =
          simLocation && day.day >= dataset.firstDay
            ? dataset.ordersCreatedOn(simLocation, toEpochDay(day.day))
            : [];
        const live = served.filter((o) => o.isTraining !== true);
        const sales = live.filter((o) => !o.isCanceled && !o.isTransferred);
        const cancelled = served.filter((o) => o.isCanceled);
        const transferred = live.filter((o) => !o.isCanceled && o.isTransferred);
        const sum = (orders: typeof served) => round(orders.reduce((t, o) => t + o.total, 0));
        expect(day.synced).toBe(day.day >= dataset.firstDay);
        expect([day.day, day.orders, round(day.sales)]).toEqual([
          day.day,
          sales.length,
          sum(sales),
        ]);
        expect([day.cancelledOrders, round(day.cancelledTotal)]).toEqual([
          cancelled.length,
          sum(cancelled),
        ]);
        expect([day.transferredOrders, round(day.transferredSales)]).toEqual([
          transferred.length,
          sum(transferred),
        ]);
      }
    }
  });

  it("tells how each report of the charted days reconciles with its orders", () => {
    const { data } = pageOf(kind);
    const { dataset } = simulator;
    for (const key of simulator.keys) {
      const simLocation = dataset.locationForKey(key);
      const page = data.locations.find((l) => l.location.id === simLocation?.location.id);
      const served = [];
      for (let day = toEpochDay(dataset.firstDay); day <= toEpochDay(dataset.today); day++)
        if (simLocation) served.push(...dataset.reportsCreatedOn(simLocation, day));
      expect(page?.reports.map((r) => r.reportNumber).sort((a, b) => a - b)).toEqual(
        served.map((r) => r.reportNumber).sort((a, b) => a - b),
      );
      expect(new Set(page?.reports.map((r) => r.status))).toEqual(new Set(["ok"]));
    }
  });

  it("calls the last success late once two scheduled runs have passed without one", async () => {
    const env = envs.get(kind) ?? {};
    const lastSuccess = Date.parse(pageOf(kind).data.freshness.lastSuccessAt ?? "");
    const quarter = 15 * 60_000;
    // The second quarter hour after the last success, then the grace a run has to end.
    const secondRun = (Math.floor(lastSuccess / quarter) + 2) * quarter;
    const at = (ms: number) => new Date(ms);
    expect((await readPage(env, at(secondRun + LATE_GRACE_MS - 1_000))).freshness.late).toBe(false);
    expect((await readPage(env, at(secondRun + LATE_GRACE_MS))).freshness.late).toBe(true);
    // Once a day: a day and a half is one missed run, not two.
    const daily = await readPage(env, at(lastSuccess + 36 * 3_600_000), "0 3 * * *");
    expect(daily.freshness.late).toBe(false);
  });

  it("renders a page that names every location and shows no API key", () => {
    const { data, trouble } = pageOf(kind);
    const html = renderStatusPage(data);
    for (const key of simulator.keys) {
      expect(html).not.toContain(key);
      expect(html).toContain(keyFingerprint(key));
    }
    expect(html).not.toContain("a-key-nobody-issued");
    for (const location of data.locations) expect(html).toContain(location.location.name ?? "");
    expect(html).toContain(
      `data-day="${trouble.incompleteDay}" data-stream="orders" data-coverage="incomplete"`,
    );
    expect(html).not.toMatch(/<script|https?:\/\/(?!status\.invalid)/);
  });
});

describe.each(DESTINATION_KINDS)("what the status page says on %s", (kind) => {
  const htmlOf = () => renderStatusPage(pageOf(kind).data);
  const sectionOf = (html: string, locationId: string) =>
    html.match(
      new RegExp(`<section class="location" data-location="${locationId}">.*?</section>`),
    )?.[0] ?? "";

  it("says how far each location's stored days were proved, and what was repaired lately", () => {
    const html = htmlOf();
    for (const location of pageOf(kind).data.locations) {
      expect(sectionOf(html, location.location.id)).toMatch(
        /<p class="history">History: every stored day proved since \d{4}-\d\d-\d\d \d\d:\d\d; 0 days repaired in the last 30 days<\/p>/,
      );
    }
  });

  it("gives a key the API rejected a card of its own, with the error, when its location was never read", () => {
    const { data, trouble } = pageOf(kind);
    const key = keyFingerprint("a-key-nobody-issued");
    expect(data.failedKeys).toEqual([
      { key, name: null, runId: data.runs[0]?.id, error: trouble.failedError, keyRejected: true },
    ]);
    expect(data.locations.map((l) => l.failure)).toEqual(data.locations.map(() => null));
    const card = htmlOf().match(/<section class="location key-failed"[^>]*>.*?<\/section>/)?.[0];
    expect(card).toContain(`data-key="${key}"`);
    expect(card).toContain(`API key ${key}`);
    expect(card).toContain("the API rejected the API key");
  });

  it("leaves the days before the API's first day blank, and counts them apart from days not synced", () => {
    const { data } = pageOf(kind);
    const { dataset } = simulator;
    const chartStart = addDays(dataset.today, -(SALES_DAYS - 1));
    const before = eachDay(chartStart, addDays(dataset.firstDay, -1));
    expect(before.length).toBeGreaterThan(0);
    const html = htmlOf();
    for (const page of data.locations) {
      expect(page.sales.filter((day) => day.beforeFirstDay).map((day) => day.day)).toEqual(before);
      const section = sectionOf(html, page.location.id);
      expect(section).toContain(`; ${before.length} days before the API's first day</span>`);
      expect(section).not.toContain("not synced");
      const firstDay = section.match(/<g class="sales-day" data-day="[^"]+">.*?<\/g>/)?.[0];
      expect(firstDay).toContain(`<title>${chartStart}: before the API&#39;s first day</title>`);
      expect(firstDay).not.toContain('class="unsynced"');
    }
  });

  it("shows the times on the locations' clock, with UTC in the title", () => {
    const { data } = pageOf(kind);
    // Both of the simulator's first two venues are an hour east of UTC.
    expect(new Set(simulator.dataset.locations.map((l) => l.offsetMinutes))).toEqual(new Set([60]));
    const html = htmlOf();
    expect(html).toContain("times on the locations' clock (UTC+01:00; UTC on hover)");
    const failed = data.runs[0];
    if (!failed) throw new Error("no run");
    const at = Date.parse(failed.startedAt);
    const minute = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");
    expect(html).toContain(
      `<td>#${failed.id}</td><td><time datetime="${new Date(at).toISOString()}" title="${minute(at)} UTC">${minute(at + 3_600_000)}</time></td>`,
    );
  });

  it("says the schedule in words, with the cron text on hover", () => {
    expect(htmlOf()).toContain('<span title="cron: */15 * * * *">Runs every 15 minutes.</span>');
  });
});

describe("a location whose stored key the API then rejects", () => {
  it("keeps its card, which says why the latest run could not sync it", async () => {
    const into = await destinations.fresh("sqlite");
    const destination = await into.open();
    let rejected: { locationKey: string; error: string };
    try {
      await backfillWithRetries(simulator, destination);
      rejected = await rejectStoredKey(simulator, destination);
    } finally {
      await destination.close();
    }
    const data = await readPage(into.env, simulatorNoon());
    const locationId = locationIdOfKey(rejected.locationKey);
    expect(data.failedKeys).toEqual([]);
    const page = data.locations.find((l) => l.location.id === locationId);
    expect(page?.failure).toMatchObject({
      key: keyFingerprint(rejected.locationKey),
      error: rejected.error,
      keyRejected: true,
    });
    const html = renderStatusPage(data);
    const section = html.match(
      new RegExp(`<section class="location" data-location="${locationId}">.*?</section>`),
    )?.[0];
    expect(section).toContain(
      `<p class="key-failure">Run #${page?.failure?.runId} could not sync this location: `,
    );
    expect(section).toContain("the API rejected the API key");
  });
});

describe("the page's HTML", () => {
  it("escapes what the API sent, so that a location's name cannot become markup", () => {
    const { data } = pageOf("sqlite");
    const first = data.locations[0];
    if (!first) throw new Error("no location");
    const attack = '<img src=x onerror="alert(1)">';
    const streams = first.location.streams.map((stream) => ({
      ...stream,
      calendar: stream.calendar.map((cell) => ({
        ...cell,
        coverage: "failed" as const,
        error: attack,
      })),
    }));
    const failure = { key: attack, name: attack, runId: 1, error: attack, keyRejected: true };
    const hostile: StatusPageData = {
      ...data,
      runs: data.runs.map((run) => ({ ...run, error: attack, trigger: attack })),
      locations: [{ ...first, location: { ...first.location, name: attack, streams }, failure }],
      failedKeys: [failure],
      freshness: { ...data.freshness, schedule: attack },
    };
    const html = renderStatusPage(hostile);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("reloads itself only when asked to (the daemon's page, not a mailed file)", () => {
    const { data } = pageOf("sqlite");
    expect(renderStatusPage(data, { refreshSeconds: 60 })).toContain(
      '<meta http-equiv="refresh" content="60">',
    );
    expect(renderStatusPage(data)).not.toContain('http-equiv="refresh"');
    expect(renderStatusPage(data)).toContain("Content-Security-Policy");
  });

  it("keeps each mark of the sales legend with its own words: the scale note does not run into the next", () => {
    const html = renderStatusPage(pageOf("sqlite").data);
    const legend = html.match(/<p class="legend">(?:(?!<\/p>).)*not synced.*?<\/p>/)?.[0] ?? "";
    expect(legend).toContain("transferred (below the axis, own scale)</span>");
    expect(legend).toMatch(
      /<span class="legend-item"><svg[^>]*><rect class="unsynced"[^>]*\/><\/svg> not synced<\/span>/,
    );
    expect(legend).toContain("before the API's first day</span>");
  });

  it("keeps times in UTC when the locations are on different clocks", () => {
    const { data } = pageOf("sqlite");
    const html = renderStatusPage({ ...data, localOffsets: {} });
    expect(html).toContain("times in UTC");
    const at = data.runs[0]?.startedAt ?? "";
    expect(html).toContain(
      `<time datetime="${new Date(at).toISOString()}">${at.slice(0, 16).replace("T", " ")} UTC</time>`,
    );
  });
});
