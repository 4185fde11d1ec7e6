/** `sync --since D` with no `--until` reads each location through its own today, not through
 * the day UTC is on; a `--since` before the API's first day, on sync and verify, starts there. */
import { describe, expect, it } from "vitest";
import { addDays, eachDay } from "../src/clock/days.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { FALLBACK_START_DAYS, skippedNotice, startDateOf } from "../src/start-date.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { localToday } from "./helpers/clock.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const tempPath = useTempDir();
// The fifth location keeps UTC+05:30 and the third UTC-05:00.
const sim = useSimulator({ locations: 5, days: 6, seed: 41, ordersPerDay: [1, 3] });

describe("an explicit range with no last day", () => {
  it("reads a location ahead of UTC through its own today, and one behind through its own", async () => {
    const db = openTestDb(tempPath());
    const [ahead, behind] = [4, 2].map((i) => sim.current.dataset.locations[i]);
    if (!ahead || !behind) throw new Error("the simulator serves fewer than five locations");
    expect([ahead.offsetMinutes, behind.offsetMinutes]).toEqual([330, -300]);
    // 20:00 UTC the day before the data's today: 01:30 on that today at UTC+05:30.
    const now = () => new Date(`${addDays(TEST_TODAY, -1)}T20:00:00.000Z`);
    await syncOnce(sim.current, db, { range: { since: addDays(TEST_TODAY, -3) }, now });
    const lastOf = (id: string) =>
      rows(db, "SELECT MAX(day) AS last FROM sync_windows WHERE location_id = ?", id)[0]?.last;
    expect(lastOf(ahead.location.id)).toBe(TEST_TODAY);
    expect(lastOf(behind.location.id)).toBe(addDays(TEST_TODAY, -1));
    db.close();
  });
});

describe("where a start asked for begins (start-date.ts)", () => {
  const today = "2026-03-15";
  const firstDay = "2026-01-10";

  it("keeps a start inside the API's history, and starts without one at its first day", () => {
    expect(startDateOf("2026-02-01", firstDay, today)).toEqual({ startDate: "2026-02-01" });
    expect(startDateOf(undefined, firstDay, today)).toEqual({ startDate: firstDay });
  });

  it("moves a start before the API's first day to that day, and says so in one line", () => {
    const { startDate, skipped } = startDateOf("1900-01-01", firstDay, today);
    expect(startDate).toBe(firstDay);
    if (!skipped) throw new Error("the start did not move");
    expect(skippedNotice("--since", skipped)).toBe(
      `--since 1900-01-01 is before the first day this location's API holds (${firstDay}): the days before it hold nothing and are not read`,
    );
  });

  it("starts no earlier than the fallback days ago while the API holds no report", () => {
    const fallback = addDays(today, -FALLBACK_START_DAYS);
    const { startDate, skipped } = startDateOf("1900-01-01", undefined, today);
    expect(startDate).toBe(fallback);
    expect(skipped).toEqual({ setting: "1900-01-01", firstDay: fallback, noReport: true });
    expect(startDateOf(addDays(today, -3), undefined, today)).toEqual({
      startDate: addDays(today, -3),
    });
  });

  it("reads recent days as asked when the first day cannot be read, and refuses years of them", () => {
    expect(startDateOf(addDays(today, -3), null, today)).toEqual({ startDate: addDays(today, -3) });
    expect(() => startDateOf("1900-01-01", null, today)).toThrow(
      /could not be read from its reports, and 1900-01-01 is more than 90 days ago/,
    );
  });
});

// The command line runs on the real clock: this simulator ends on the today it picks from it.
const live = useSimulator({ today: simulatorToday(), days: 6, seed: 43, locations: 1 });
// A run that planned every day since 1900 takes minutes: it is stopped well before.
const BOUND_MS = 30_000;

const requestsOf = (text: string) =>
  Number(/(\d[\d,]*) requests/.exec(text)?.[1]?.replace(/,/g, ""));

describe("an explicit range that starts before the API's first day", () => {
  it("syncs from the API's first day, says so in one line, and reads only the API's days", async () => {
    const { firstDay } = live.current.dataset;
    const yesterday = addDays(localToday(live.current), -1);
    const dbPath = tempPath();
    const env = simulatorEnv(live.current, dbPath);
    const run = await runCli(
      ["sync", "--since", "1900-01-01", "--until", yesterday],
      env,
      BOUND_MS,
    );
    expect(run.code, run.stderr).toBe(0);
    const notice = `--since 1900-01-01 is before the first day this location's API holds (${firstDay}): the days before it hold nothing and are not read`;
    expect(run.stdout.split(notice)).toHaveLength(2);
    expect(run.stderr).toContain(notice);
    const days = eachDay(firstDay, yesterday);
    const db = openTestDb(dbPath);
    for (const stream of ["orders", "reports"])
      expect(
        rows(db, "SELECT day FROM sync_windows WHERE stream = ? ORDER BY day", stream).map(
          (r) => r.day,
        ),
      ).toEqual(days);
    db.close();
    const exact = await runCli(
      ["sync", "--since", firstDay, "--until", yesterday],
      simulatorEnv(live.current, tempPath()),
    );
    expect(exact.code, exact.stderr).toBe(0);
    expect(exact.stdout).not.toContain("--since");
    expect(requestsOf(run.stdout)).toBe(requestsOf(exact.stdout));
  }, 90_000);

  it.each([[[]], [["--repair"]]])(
    "verify %j checks from the API's first day, says so, and asks what the real range asks",
    async (flags) => {
      const { firstDay } = live.current.dataset;
      const dbPath = tempPath();
      const env = simulatorEnv(live.current, dbPath);
      expect((await runCli(["sync"], env)).code).toBe(0);
      const run = await runCli(["verify", "--since", "1900-01-01", ...flags], env, BOUND_MS);
      expect(run.code, run.stderr + run.stdout).toBe(0);
      const notice = `  --since 1900-01-01 is before the first day this location's API holds (${firstDay}): the days before it hold nothing and are not read\n`;
      expect(run.stdout.split(notice)).toHaveLength(2);
      const days = eachDay(firstDay, localToday(live.current)).length;
      expect(run.stdout).toContain(`${days * 2} day counts checked, ${firstDay} to `);
      const exact = await runCli(["verify", "--since", firstDay, ...flags], env);
      expect(exact.code, exact.stderr + exact.stdout).toBe(0);
      expect(exact.stdout).not.toContain("--since");
      expect(requestsOf(run.stdout)).toBe(requestsOf(exact.stdout));
    },
    90_000,
  );
});
