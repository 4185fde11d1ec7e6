/** What a person sees: the live progress lines and the summary that ends a run. */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { MilestoneProgress, TerminalProgress } from "../src/sync/progress.js";
import type { RunResult } from "../src/sync/run.js";
import { RunStats } from "../src/sync/stats.js";
import { formatSummary } from "../src/sync/summary.js";

function capture(): { out: Writable; text: () => string } {
  let output = "";
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  return { out, text: () => output };
}

describe("the terminal progress display", () => {
  it("redraws one line per stream in place with days, records and rate", () => {
    const { out, text } = capture();
    const progress = new TerminalProgress(out, 60_000);
    progress.planned("reports", 10);
    progress.planned("orders", 10);
    progress.windowDone({
      location: "l",
      stream: "orders",
      day: "2026-03-01",
      records: 1234,
      status: "complete",
    });
    progress.stop();
    progress.stop();
    const frames = text().split("\x1b[2A");
    expect(frames).toHaveLength(2);
    const lines = (frames[1] ?? "").split("\n");
    expect(lines[1]).toMatch(
      /^.\[2Korders {3}\[##\.{22}\] 1\/10 days {2}1,234 records {2}[\d,]+\/s$/,
    );
    expect(frames[1]).toContain("reports  [........................] 0/10 days  0 records");
  });
});

describe("the progress lines for output that is not a terminal", () => {
  it("print one line per stream at each quarter of its days", () => {
    const { out, text } = capture();
    const progress = new MilestoneProgress(out);
    progress.planned("orders", 8);
    for (let day = 1; day <= 8; day++) {
      progress.windowDone({
        location: "l",
        stream: "orders",
        day: `2026-03-0${day}`,
        records: 100,
        status: "complete",
      });
    }
    expect(text().split("\n")).toEqual([
      "orders   2/8 days  200 records",
      "orders   4/8 days  400 records",
      "orders   6/8 days  600 records",
      "orders   8/8 days  800 records",
      "",
    ]);
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
    orders.problems.push({ day: "2026-03-02", error: "GET /v1/orders/?… answered 503" });
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
    };
    const text = formatSummary(result);
    expect(text).toContain(
      "pos-sync sync: partial in 42.5 s (run #7, 1,500 requests, 12 retried, 1 rate-limited)",
    );
    expect(text).toContain("Le Petit Zinc  loc-1  key#1234abcd");
    expect(text).toMatch(/\n {2}orders\s+29\/30\s+12,345\s+12,000\s+0\s+345\s+2\s+0\n/);
    expect(text).toContain("! catalog: taxes is not served at the configured path (skipped)");
    expect(text).toContain("! orders 2026-03-02: GET /v1/orders/?… answered 503");
    expect(text).toContain("the next run");
  });
});
