/** The coverage calendar of `pos-sync status`: one character a day, the same with or without
 * colour, and colour only where someone watches and has not turned it off. */
import { describe, expect, it } from "vitest";
import { addDays, eachDay } from "../src/clock/days.js";
import { wantsColor } from "../src/commands/status.js";
import type { CalendarDay, DayCoverage } from "../src/read-models/coverage.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { calendarLegend, calendarLine, dayCharacter } from "../src/ui/terminal-calendar.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { localToday } from "./helpers/clock.js";
import { useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";

// Any SGR sequence, whatever its parameters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape codes are what is looked for
const SGR_PATTERN = /\x1b\[[0-9;]*m/g;

function stripSgr(text: string): string {
  return text.replace(SGR_PATTERN, "");
}

function calendarDay(day: string, coverage: DayCoverage, rejected = 0): CalendarDay {
  return { day, coverage, apiCount: null, storedCount: null, rejected, error: null };
}

/** Consecutive days from `first`, one coverage each. */
function calendarFrom(first: string, coverages: readonly DayCoverage[]): CalendarDay[] {
  return coverages.map((coverage, index) => calendarDay(addDays(first, index), coverage));
}

// 2026-11-04 is a Wednesday, 2026-11-09 a Monday.
const WEDNESDAY = "2026-11-04";

describe("the calendar's characters", () => {
  it.each([
    ["complete", "#"],
    ["open", "o"],
    ["incomplete", "!"],
    ["suspicious", "?"],
    ["failed", "x"],
    ["missing", "."],
  ] as const)("shows a %s day as %s", (coverage, character) => {
    const day = calendarDay(WEDNESDAY, coverage);
    expect(dayCharacter(day)).toBe(character);
    expect(calendarLine([day], "plain")).toBe(character);
  });

  it("shows a complete or open day with rejected records as r", () => {
    expect(dayCharacter(calendarDay(WEDNESDAY, "complete", 2))).toBe("r");
    expect(dayCharacter(calendarDay(WEDNESDAY, "open", 1))).toBe("r");
  });

  it("keeps a day that is not in as what it is, rejected records or not", () => {
    expect(dayCharacter(calendarDay(WEDNESDAY, "failed", 3))).toBe("x");
    expect(dayCharacter(calendarDay(WEDNESDAY, "incomplete", 3))).toBe("!");
  });
});

describe("the calendar's weeks", () => {
  it("puts a space before each Monday, so the first week may be short", () => {
    const days = calendarFrom(WEDNESDAY, Array(13).fill("complete"));
    expect(calendarLine(days, "plain")).toBe("##### ####### #");
  });

  it("starts without a space when the first day is a Monday", () => {
    const days = calendarFrom("2026-11-09", Array(8).fill("complete"));
    expect(calendarLine(days, "plain")).toBe("####### #");
  });

  it("shows eight weeks of days as 56 characters in eight groups, whatever the first weekday", () => {
    for (let shift = 0; shift < 7; shift++) {
      const days = calendarFrom(addDays(WEDNESDAY, shift), Array(56).fill("complete"));
      const groups = calendarLine(days, "plain").split(" ");
      expect(groups.join("")).toHaveLength(56);
      expect(groups.length).toBe(shift === 5 ? 8 : 9);
    }
  });
});

describe("the calendar's styles", () => {
  const mixed = [
    ...calendarFrom(WEDNESDAY, [
      "complete",
      "complete",
      "incomplete",
      "suspicious",
      "failed",
      "missing",
      "missing",
      "complete",
      "open",
    ]),
    calendarDay(addDays(WEDNESDAY, 9), "complete", 4),
  ];

  it("writes plain ASCII without escape codes", () => {
    const line = calendarLine(mixed, "plain");
    expect(line).toBe("##!?x ..#or");
    expect(line).toMatch(/^[\x20-\x7e]*$/);
    expect(calendarLegend("plain")).toMatch(/^[\x20-\x7e]*$/);
  });

  it("colours the same characters, one code and one reset per run, spaces between weeks outside", () => {
    const line = calendarLine(mixed, "color");
    expect(line).not.toBe(stripSgr(line));
    expect(stripSgr(line)).toBe(calendarLine(mixed, "plain"));
    expect(line).toBe(
      "\x1b[32m##\x1b[0m\x1b[33m!?\x1b[0m\x1b[31mx\x1b[0m " +
        "\x1b[90m..\x1b[0m\x1b[32m#\x1b[0m\x1b[36mo\x1b[0m\x1b[35mr\x1b[0m",
    );
  });

  it("keeps a run of one colour open across the space between weeks", () => {
    const days = calendarFrom(WEDNESDAY, Array(8).fill("complete"));
    expect(calendarLine(days, "color")).toBe("\x1b[32m##### ###\x1b[0m");
  });

  it("explains every character in the legend, coloured the same way in colour", () => {
    const plain = calendarLegend("plain");
    expect(plain).toBe(
      "# complete  o open  ! incomplete  ? suspicious  x failed  . never read  r rejected records",
    );
    const colored = calendarLegend("color");
    expect(colored).toContain("\x1b[32m#\x1b[0m complete");
    expect(colored).toContain("\x1b[35mr\x1b[0m rejected records");
    expect(stripSgr(colored)).toBe(plain);
  });
});

describe("when status colours", () => {
  const terminal = { isTTY: true } as unknown as NodeJS.WritableStream;
  const pipe = {} as NodeJS.WritableStream;

  it("colours on a terminal, and not in a pipe", () => {
    expect(wantsColor(terminal, {})).toBe(true);
    expect(wantsColor(pipe, {})).toBe(false);
  });

  it("does not colour on a terminal when NO_COLOR is set to anything, or TERM is dumb", () => {
    expect(wantsColor(terminal, { NO_COLOR: "1" })).toBe(false);
    expect(wantsColor(terminal, { NO_COLOR: "0" })).toBe(false);
    expect(wantsColor(terminal, { TERM: "dumb" })).toBe(false);
  });

  it("ignores an empty NO_COLOR, as no-color.org asks", () => {
    expect(wantsColor(terminal, { NO_COLOR: "" })).toBe(true);
  });

  it("colours a pipe or a dumb terminal when FORCE_COLOR is set, but not when it is 0", () => {
    expect(wantsColor(pipe, { FORCE_COLOR: "1" })).toBe(true);
    expect(wantsColor(terminal, { FORCE_COLOR: "1", TERM: "dumb" })).toBe(true);
    expect(wantsColor(terminal, { FORCE_COLOR: "0" })).toBe(false);
    expect(wantsColor(terminal, { FORCE_COLOR: "false" })).toBe(false);
    expect(wantsColor(pipe, { FORCE_COLOR: "" })).toBe(false);
  });

  it("lets NO_COLOR win over FORCE_COLOR", () => {
    expect(wantsColor(terminal, { NO_COLOR: "1", FORCE_COLOR: "1" })).toBe(false);
  });
});

describe("pos-sync status's calendar", () => {
  const tempPath = useTempDir();
  // The command line runs on the real clock: the simulator ends on the today it picks from it.
  const sim = useSimulator({ today: simulatorToday(), days: 10, seed: 31, locations: 1 });

  async function status(dbPath: string, env: Record<string, string> = {}): Promise<string> {
    const result = await runCli(["status"], { POS_DB_PATH: dbPath, ...env });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  }

  /** Each day of a stream's calendar line and its character, checked against its weeks. */
  function calendarOf(text: string, stream: string): Map<string, string> {
    const lines = text.split("\n");
    const head = lines.findIndex((line) => line.startsWith(`  ${stream.padEnd(8)} complete`));
    const match = /^ {11}(\d{4}-\d{2}-\d{2}) ([#o!?x.r ]+) (\d{4}-\d{2}-\d{2})$/.exec(
      lines[head + 1] ?? "",
    );
    expect(match, text).not.toBeNull();
    const [, first = "", cells = "", last = ""] = match ?? [];
    const days = eachDay(first, last);
    const characters = cells.replaceAll(" ", "");
    expect(characters).toHaveLength(days.length);
    // Every week after the first starts on a Monday.
    let index = 0;
    for (const group of cells.split(" ")) {
      if (index > 0) expect(new Date(`${days[index]}T00:00:00Z`).getUTCDay()).toBe(1);
      index += group.length;
    }
    return new Map(days.map((day, i) => [day, characters[i] ?? ""]));
  }

  it("shows the days a sync left incomplete or failed, plain in a pipe, coloured when forced", async () => {
    const dbPath = tempPath();
    const env = simulatorEnv(sim.current, dbPath);
    const first = await runCli(["sync"], env);
    expect(first.code, first.stderr).toBe(0);

    const day = localToday(sim.current);
    const [skewed, refused] = [addDays(day, -3), addDays(day, -5)];
    try {
      // Counts one too high: the day's read cannot be proven complete.
      sim.current.faults.set({ totalCountSkew: 1 });
      const skewedRun = await runCli(
        ["sync", "--since", skewed, "--until", skewed, "--streams", "orders"],
        env,
      );
      expect(skewedRun.code, skewedRun.stderr).toBe(1);
      sim.current.faults.reset();
      // A 4xx other than 401/403/429 is not retried: the day fails.
      sim.current.faults.inject({ kind: "status", status: 422, operation: "listOrders" });
      const refusedRun = await runCli(
        ["sync", "--since", refused, "--until", refused, "--streams", "orders"],
        env,
      );
      expect(refusedRun.code, refusedRun.stderr).toBe(1);
    } finally {
      sim.current.faults.reset();
    }

    const piped = await status(dbPath);
    expect(piped).not.toMatch(SGR_PATTERN);
    const orders = calendarOf(piped, "orders");
    expect(orders.get(skewed)).toBe("!");
    expect(orders.get(refused)).toBe("x");
    expect(orders.get(addDays(day, -1))).toBe("#");
    expect(orders.get(day)).toBe("o");
    const reports = calendarOf(piped, "reports");
    expect([reports.get(skewed), reports.get(refused)]).toEqual(["#", "#"]);
    expect(piped.match(/^# complete {2}o open {2}! incomplete .* r rejected records$/gm)).toEqual([
      calendarLegend("plain"),
    ]);

    const forced = await status(dbPath, { FORCE_COLOR: "1" });
    expect(forced).toContain("\x1b[33m!\x1b[0m");
    expect(forced).toContain("\x1b[31mx\x1b[0m");
    expect(stripSgr(forced)).toBe(piped);

    expect(await status(dbPath, { FORCE_COLOR: "1", NO_COLOR: "1" })).toBe(piped);
  });

  describe("of a history longer than it shows", () => {
    // An explicit --since starts at the API's first day: the history itself must be longer.
    const long = useSimulator({ today: simulatorToday(), days: 70, seed: 31, locations: 1 });

    it("says it shows the latest days when the history its text counts from starts earlier", async () => {
      const dbPath = tempPath();
      const since = long.current.dataset.firstDay;
      const synced = await runCli(["sync", "--since", since], simulatorEnv(long.current, dbPath));
      expect(synced.code, synced.stderr).toBe(0);
      const text = await status(dbPath);
      expect(text).toMatch(
        new RegExp(`^ {2}orders +complete through .* complete days since ${since},`, "m"),
      );
      expect(text).toMatch(
        /^ {11}\d{4}-\d\d-\d\d [#o!?x.r ]+ \d{4}-\d\d-\d\d \(the latest 56 days\)$/m,
      );
    });
  });
});
