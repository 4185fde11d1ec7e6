/** Which stored days the daemon's audit re-proves in a run (src/sync/audit-plan.ts). */
import { describe, expect, it } from "vitest";
import type { ProvedWindow } from "../src/db/reads/checkpoints.js";
import { planAudit } from "../src/sync/audit-plan.js";

const DAY_MS = 86_400_000;
const NOW = new Date("2026-06-30T12:00:00.000Z");

function ago(ms: number): string {
  return new Date(NOW.getTime() - ms).toISOString();
}

/** `count` windows proved `provedAgoMs` ago, least recently proved first as the reader gives them. */
function windows(count: number, provedAgoMs: number): ProvedWindow[] {
  return Array.from({ length: count }, (_, i) => ({
    stream: "orders" as const,
    day: `2026-01-${String((i % 28) + 1).padStart(2, "0")}`,
    provedAt: ago(provedAgoMs - i),
  }));
}

describe("planAudit", () => {
  it("paces a location's first audit as every later one: nothing at once, all of it within the period", () => {
    // Stored a year ago, never proved since: what an upgrade or a newly set period finds.
    let all = windows(730, 365 * DAY_MS);
    const first = planAudit(all, { now: NOW, periodDays: 30, cursor: undefined, since: undefined });
    expect(first.due).toHaveLength(0);
    expect(first.paced).toHaveLength(0);
    expect(first.since).toBe(NOW.toISOString());
    let cursor = first.cursorAfter(0);
    let proofs = 0;
    const runMs = 15 * 60_000;
    const period = 30 * 96;
    for (let run = 1; run <= period; run++) {
      const now = new Date(NOW.getTime() + run * runMs);
      const plan = planAudit(all, { now, periodDays: 30, cursor, since: first.since });
      const taken = [...plan.due, ...plan.paced];
      // The promise waits for the pace's first period: a share a run, never the whole at once.
      if (run < period) expect(plan.due).toHaveLength(0);
      expect(taken.length).toBeLessThanOrEqual(1);
      proofs += taken.length;
      const proved = taken.map((w) => ({ ...w, provedAt: now.toISOString() }));
      all = [...all.filter((w) => !taken.includes(w)), ...proved];
      cursor = plan.cursorAfter(taken.length);
    }
    // Within the period, every stored day was proved once.
    expect(proofs).toBeGreaterThanOrEqual(729);
    const oldest = Date.parse(all[0]?.provedAt ?? "");
    expect(oldest).toBeGreaterThan(NOW.getTime());
  });

  it("then takes every window once a period, a window a run at most, fractions carried", () => {
    let all = windows(730, 730);
    let cursor = NOW.toISOString();
    let proofs = 0;
    const runMs = 15 * 60_000;
    // A period of runs every 15 minutes: each proof moves its window to the back.
    for (let run = 1; run <= 30 * 96; run++) {
      const now = new Date(NOW.getTime() + run * runMs);
      const plan = planAudit(all, { now, periodDays: 30, cursor, since: ago(60 * DAY_MS) });
      const taken = [...plan.due, ...plan.paced];
      expect(taken.length).toBeLessThanOrEqual(1);
      proofs += taken.length;
      const proved = taken.map((w) => ({ ...w, provedAt: now.toISOString() }));
      all = [...all.filter((w) => !taken.includes(w)), ...proved];
      cursor = plan.cursorAfter(taken.length);
      // No stored day goes unproved longer than the period (and the run that finds it).
      const oldest = Date.parse(all[0]?.provedAt ?? "");
      expect(now.getTime() - oldest).toBeLessThanOrEqual(30 * DAY_MS + runMs);
    }
    expect(proofs).toBeGreaterThanOrEqual(729);
    expect(proofs).toBeLessThanOrEqual(731);
  });

  it("takes the least recently proved first", () => {
    const mixed: ProvedWindow[] = [
      { stream: "reports", day: "2026-02-01", provedAt: ago(10 * DAY_MS) },
      { stream: "orders", day: "2026-03-01", provedAt: ago(DAY_MS) },
    ];
    const plan = planAudit(mixed, {
      now: NOW,
      periodDays: 30,
      cursor: ago(15 * DAY_MS),
      since: ago(15 * DAY_MS),
    });
    expect(plan.paced).toEqual([mixed[0]]);
  });

  it("always takes a window proved longer ago than the period, beyond the pace", () => {
    const stale = windows(3, 31 * DAY_MS);
    const fresh = windows(100, DAY_MS);
    const plan = planAudit([...stale, ...fresh], {
      now: NOW,
      periodDays: 30,
      cursor: NOW.toISOString(),
      since: ago(31 * DAY_MS),
    });
    expect(plan.due).toEqual(stale);
    expect(plan.paced).toHaveLength(0);
    // A pace kept before it recorded its start has run longer than any period.
    const legacy = planAudit([...stale, ...fresh], {
      now: NOW,
      periodDays: 30,
      cursor: NOW.toISOString(),
      since: undefined,
    });
    expect(legacy.due).toEqual(stale);
  });

  it("takes nothing when the audit is off or there is nothing stored", () => {
    const cursor = ago(DAY_MS);
    const since = ago(60 * DAY_MS);
    expect(
      planAudit(windows(10, DAY_MS), { now: NOW, periodDays: 0, cursor, since }).paced,
    ).toEqual([]);
    expect(planAudit([], { now: NOW, periodDays: 30, cursor, since }).due).toEqual([]);
  });
});

describe("planAudit at its edges", () => {
  const PERIOD = 30 * DAY_MS;
  const window = (day: string, provedAt: string | null): ProvedWindow => ({
    stream: "orders",
    day,
    provedAt,
  });
  const fresh = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      window(`2026-05-${String(i + 1).padStart(2, "0")}`, ago(DAY_MS)),
    );

  it.each<[name: string, windows: ProvedWindow[], since: string, dueDays: string[]]>([
    [
      "a window never proved is due once the pace has run a period",
      [window("2026-01-01", null), ...fresh(2)],
      ago(PERIOD),
      ["2026-01-01"],
    ],
    [
      "a window proved exactly a period ago is due",
      [window("2026-01-01", ago(PERIOD)), ...fresh(2)],
      ago(PERIOD),
      ["2026-01-01"],
    ],
    [
      "a window proved a moment less than a period ago is not",
      [window("2026-01-01", ago(PERIOD - 1)), ...fresh(2)],
      ago(PERIOD),
      [],
    ],
    [
      "nothing is due before the pace has run a whole period",
      [window("2026-01-01", null), window("2026-01-02", ago(2 * PERIOD))],
      ago(PERIOD - 1),
      [],
    ],
  ])("%s", (_name, windows, since, dueDays) => {
    const plan = planAudit(windows, { now: NOW, periodDays: 30, cursor: NOW.toISOString(), since });
    expect(plan.due.map((w) => w.day)).toEqual(dueDays);
  });

  it.each<[name: string, windows: number, periodDays: number]>([
    ["the audit off", 10, 0],
    ["nothing stored", 0, 30],
  ])(
    "takes nothing, due or paced, and keeps the cursor at now, with %s",
    (_name, count, periodDays) => {
      const plan = planAudit(
        Array.from({ length: count }, () => window("2026-01-01", null)),
        { now: NOW, periodDays, cursor: ago(2 * PERIOD), since: ago(2 * PERIOD) },
      );
      expect([plan.due, plan.paced]).toEqual([[], []]);
      expect(plan.cursorAfter(0)).toBe(NOW.toISOString());
    },
  );

  it.each<[name: string, cursor: string, proved: number, after: string]>([
    ["moves the cursor by a window's share of the period", ago(10 * DAY_MS), 1, ago(7 * DAY_MS)],
    [
      "moves a cursor left behind by more than a period from a period ago",
      ago(3 * PERIOD),
      1,
      ago(27 * DAY_MS),
    ],
    ["never moves the cursor past now", ago(DAY_MS), 5, NOW.toISOString()],
  ])("%s", (_name, cursor, proved, after) => {
    // Ten windows in a 30-day period: three days of pace each.
    const plan = planAudit(fresh(10), { now: NOW, periodDays: 30, cursor, since: ago(2 * PERIOD) });
    expect(plan.cursorAfter(proved)).toBe(after);
  });
});
