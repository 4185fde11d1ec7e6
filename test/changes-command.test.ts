/** `pos-sync changes`: the order changes a sync saw, in plain language, from the command line. */
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { openTestDb, useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const sim = useSimulator({ locations: 2, days: 6, changeRate: 0 });
const tempPath = useTempDir();
let dbPath: string;
let changedOrders: string[];

beforeAll(async () => {
  dbPath = tempPath();
  const db = openTestDb(dbPath);
  try {
    await syncOnce(sim.current, db);
    const updates = sim.current.dataset.applyLateUpdates(10, 3);
    changedOrders = [...new Set(updates.map((u) => u.orderId))];
    await syncOnce(sim.current, db);
  } finally {
    db.close();
  }
});

const changes = (...args: string[]) =>
  runCli(["changes", ...args], simulatorEnv(sim.current, dbPath));

describe("pos-sync changes", () => {
  it("tells each change the last run saw in one line, with who, when and the totals", async () => {
    const result = await changes();
    expect(result.code).toBe(0);
    const [head, ...lines] = result.stdout.trim().split("\n");
    expect(head).toMatch(
      new RegExp(`^${changedOrders.length} order changes since the last run began \\(`),
    );
    expect(lines).toHaveLength(changedOrders.length);
    for (const line of lines)
      expect(line).toMatch(
        /^- order \S+ at (Le |Trattoria |.+), (paid|closed) .+ at \d\d:\d\d by \S+/,
      );
    expect(lines.some((l) => / cancelled (on \S+ )?at \d\d:\d\d by /.test(l))).toBe(true);
    expect(lines.some((l) => /, total \d+\.\d\d → \d+\.\d\d$/.test(l))).toBe(true);
  });

  it("gives each change as JSON with its sentence, and filters by location name or id", async () => {
    const all = JSON.parse((await changes("--json", "--since", "2000-01-01")).stdout);
    expect(all.sinceFrom).toBe("date");
    expect(all.changes.map((c: { orderId: string }) => c.orderId).sort()).toEqual(
      [...changedOrders].sort(),
    );
    for (const change of all.changes) expect(change.message).toMatch(/^order /);
    const location = sim.current.dataset.locations[0]!.location;
    const byName = JSON.parse(
      (
        await changes(
          "--json",
          "--since",
          "2000-01-01",
          "--location",
          String(location.name).toUpperCase(),
        )
      ).stdout,
    );
    const byId = JSON.parse(
      (await changes("--json", "--since", "2000-01-01", "--location", location.id)).stdout,
    );
    expect(byName.changes).toEqual(byId.changes);
    expect(byId.changes.every((c: { locationId: string }) => c.locationId === location.id)).toBe(
      true,
    );
    const here = all.changes.filter((c: { locationId: string }) => c.locationId === location.id);
    expect(byId.changes).toHaveLength(here.length);
    expect(here.length).toBeGreaterThan(0);
    expect(here.length).toBeLessThan(all.changes.length);
  });

  it("says when nothing changed, and refuses a bad date or an unknown location in one line", async () => {
    expect((await changes("--since", "2999-01-01")).stdout).toBe(
      "No order changed since 2999-01-01.\n",
    );
    const badDay = await changes("--since", "yesterday");
    expect(badDay.code).toBe(2);
    expect(badDay.stderr.trim().split("\n")).toHaveLength(1);
    const unknown = await changes("--location", "Nowhere");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toMatch(/^pos-sync: --location "Nowhere" names no location/);
  });
});
