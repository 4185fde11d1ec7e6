/** What a person sees: the live progress lines and the summary that ends a run. */
import { describe, expect, it } from "vitest";
import { LogProgress } from "../src/sync/progress.js";
import type { RunResult } from "../src/sync/run-result.js";
import { addProblem, RunStats } from "../src/sync/stats.js";
import { MilestoneProgress, TerminalProgress } from "../src/ui/progress-display.js";
import { formatSummary } from "../src/ui/summary.js";
import { captureLogs } from "./helpers/logs.js";
import { captureOutput } from "./helpers/output.js";

const paris = { locationId: "loc-paris", locationName: "Paris" };
const lyon = { locationId: "loc-lyon", locationName: "Lyon" };

function done(
  locationId: string,
  stream: "orders" | "reports",
  records: number,
  status = "complete",
) {
  return { locationId, stream, day: "2026-03-01", records, status };
}

describe("the terminal progress display", () => {
  it("redraws a line per location and a total, with days, records, rate and time left", () => {
    const { out, text } = captureOutput();
    let now = 0;
    const progress = new TerminalProgress(out, 60_000, () => now);
    progress.planned({ ...paris, stream: "orders", days: 10 });
    progress.planned({ ...paris, stream: "reports", days: 10 });
    progress.planned({ ...lyon, stream: "orders", days: 10 });
    now = 10_000;
    progress.windowDone(done("loc-paris", "orders", 1234));
    progress.windowDone(done("loc-paris", "reports", 1));
    progress.stop();
    const frame = text().split("\x1b[2K").slice(-3);
    expect(frame[0]).toMatch(
      /^Paris {14}\[##\.{18}\] 2\/20 windows {2}1,235 records {2}124\/s {2}1 min 30 s left\n$/,
    );
    expect(frame[1]).toMatch(/^Lyon {15}\[\.{20}\] 0\/10 windows {2}0 records {2}0\/s\n$/);
    expect(frame[2]).toMatch(/^all locations {6}\[#\.{19}\] 2\/30 windows {2}1,235 records/);
  });

  it("paces a location that waited behind another from when its windows began", () => {
    const { out, text } = captureOutput();
    let now = 0;
    const progress = new TerminalProgress(out, 60_000, () => now);
    progress.planned({ ...paris, stream: "orders", days: 10 });
    progress.planned({ ...lyon, stream: "orders", days: 10 });
    for (let day = 1; day <= 10; day++) {
      now = day * 10_000;
      progress.windowDone({ ...done("loc-paris", "orders", 100), durationMs: 10_000 });
    }
    // Lyon's windows started only once Paris was done: its first took one second.
    now = 102_000;
    progress.windowDone({ ...done("loc-lyon", "orders", 50), durationMs: 1_000 });
    progress.stop();
    const frame = text().split("\x1b[2K").slice(-3);
    expect(frame[0]).toMatch(
      /^Paris {14}\[#{20}\] 10\/10 windows {2}1,000 records {2}10\/s {2}done\n$/,
    );
    expect(frame[1]).toMatch(
      /^Lyon {15}\[##\.{18}\] 1\/10 windows {2}50 records {2}50\/s {2}9 s left\n$/,
    );
  });

  it("prints a log line above its lines, never between them", () => {
    const { out, text } = captureOutput();
    const progress = new TerminalProgress(out, 60_000, () => 0);
    progress.planned({ ...paris, stream: "orders", days: 4 });
    progress.planned({ ...lyon, stream: "orders", days: 4 });
    progress.windowDone(done("loc-paris", "orders", 10));
    progress.log("first line\n");
    progress.log("second line\n");
    progress.stop();
    // Each log line takes the place of the three lines drawn (two locations and the total),
    // which are drawn again below it: no line is ever cut by a redraw.
    // Escape characters shown as "^", so that the pattern reads plainly.
    const shown = text().replaceAll("\x1b", "^");
    expect(shown).toMatch(
      /^first line\n(\^\[2K[^\n]+\n){3}\^\[3A\^\[Jsecond line\n(\^\[2K[^\n]+\n){3}\^\[3A\^\[J(\^\[2K[^\n]+\n){3}$/,
    );
  });
});

describe("the progress lines for output that is not a terminal", () => {
  it("print one line per location at each quarter of its windows, one record or many", () => {
    const { out, text } = captureOutput();
    const progress = new MilestoneProgress(out, () => 0);
    progress.planned({ ...paris, stream: "orders", days: 40 });
    for (let day = 1; day <= 40; day++)
      progress.windowDone(done("loc-paris", "orders", day === 1 ? 1 : 100));
    expect(text().split("\n")).toEqual([
      "Paris  10/40 windows  901 records  0 s left",
      "Paris  20/40 windows  1,901 records  0 s left",
      "Paris  30/40 windows  2,901 records  0 s left",
      "Paris  40/40 windows  3,901 records",
      "",
    ]);
  });

  it("print only the end of a location of a few windows, done before progress would help", () => {
    const { out, text } = captureOutput();
    const progress = new MilestoneProgress(out, () => 0);
    progress.planned({ ...paris, stream: "orders", days: 4 });
    progress.planned({ ...paris, stream: "reports", days: 4 });
    for (let day = 1; day <= 8; day++) progress.windowDone(done("loc-paris", "orders", 1));
    expect(text()).toBe("Paris  8/8 windows  8 records\n");
  });
});

describe("the progress log", () => {
  it("says n of total for each location and stream every tenth of its days, not every window", () => {
    const logs = captureLogs("info");
    let now = 0;
    const progress = new LogProgress(logs.logger, () => now);
    for (const location of [paris, lyon])
      for (const stream of ["orders", "reports"] as const)
        progress.planned({ ...location, stream, days: 730 });
    for (let day = 0; day < 730; day++) {
      now += 100;
      for (const location of [paris, lyon])
        for (const stream of ["orders", "reports"] as const)
          progress.windowDone(done(location.locationId, stream, 50));
    }
    const events = logs.lines.map((line) => JSON.parse(line));
    const planned = events.filter((e) => e.msg === "planned day windows");
    expect(planned).toHaveLength(4);
    expect(planned[0]).toMatchObject({ locationId: "loc-paris", stream: "orders", days: 730 });
    const steps = events.filter((e) => e.msg !== "planned day windows");
    // Ten per location and stream instead of 2,920 window lines.
    expect(steps).toHaveLength(40);
    expect(steps.at(-1)).toMatchObject({
      locationId: "loc-lyon",
      stream: "reports",
      done: 730,
      planned: 730,
      records: 36_500,
      msg: "reports 730 of 730 days",
    });
    expect(steps[0]).toMatchObject({ done: 73, planned: 730, etaSeconds: 66 });
    expect(events.every((e) => !("location" in e))).toBe(true);
  });

  it("warns at once of a window that did not complete, and logs every window at debug", () => {
    const logs = captureLogs("debug");
    const progress = new LogProgress(logs.logger, () => 0);
    progress.planned({ ...paris, stream: "orders", days: 100 });
    progress.windowDone(done("loc-paris", "orders", 10));
    progress.windowDone(done("loc-paris", "orders", 0, "failed"));
    const events = logs.lines.map((line) => JSON.parse(line));
    expect(events[1]).toMatchObject({ level: 20, msg: "window synced", done: 1, planned: 100 });
    expect(events[2]).toMatchObject({
      level: 40,
      msg: "window not complete",
      locationId: "loc-paris",
      status: "failed",
      done: 2,
    });
  });
});

describe("the run summary", () => {
  it("fits a location on a few lines, with its problems", () => {
    const stats = new RunStats();
    const location = stats.location("key#1234abcd");
    Object.assign(location, { locationId: "loc-1", name: "Le Petit Zinc" });
    const orders = stats.stream("key#1234abcd", "orders");
    Object.assign(orders, { fetched: 12_345, inserted: 12_000, unchanged: 345, rejected: 2 });
    orders.windows = { planned: 30, complete: 29, incomplete: 0, failed: 1 };
    addProblem(orders, { day: "2026-03-02", error: "GET /v1/orders/?… answered 503" });
    stats.stream("key#1234abcd", "catalog").unavailable.push("taxes");
    const result: RunResult = {
      runId: 7,
      status: "partial",
      stats,
      requests: 1500,
      retries: 12,
      rateLimited: 1,
      startedAt: "2026-03-15T10:00:00.000Z",
      finishedAt: "2026-03-15T10:00:42.500Z",
      error: null,
      notices: ["1 of 2 locations were synced by another worker (host-b:42)"],
    };
    const text = formatSummary(result);
    expect(text).toContain(
      "pos-sync sync: partial in 42.5 s (run #7, 1,500 requests, 12 retried, 1 rate-limited)\n" +
        "  1 of 2 locations were synced by another worker (host-b:42)\n",
    );
    expect(text).toContain("Le Petit Zinc  loc-1  key#1234abcd");
    expect(text).toMatch(/\n {2}orders\s+29\/30\s+12,345\s+12,000\s+0\s+345\s+2\s+0\n/);
    expect(text).toContain(
      "! catalog: taxes is not served at the configured path (skipped; pos-sync probe finds it)",
    );
    expect(text).toContain("! orders 2026-03-02: GET /v1/orders/?… answered 503");
    expect(text).toContain("the next run");
  });
});
