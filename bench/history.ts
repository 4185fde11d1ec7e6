/**
 * Benchmark 7: what order history costs on disk. A chain is backfilled, then synced once a day
 * for `steps` days while the simulator's clock moves on and its planned changes (late
 * cancellations, voided items, added discounts) fall due, as a daemon would see them; the same
 * is done with history off. Figures: bytes per order of both files, the history's own bytes per
 * version, and the steady-state cost of a daemon that sees every change (bytes per version ×
 * the simulator's planned changes per order), against the 10 % budget.
 *
 * The simulator's clock moves a day at a time, so a change made and superseded within a day, or
 * made before the order's first sync, is not seen as a version here: the stepped figure is a
 * floor, the steady-state one the figure to hold against the budget.
 */
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { addDays } from "../src/clock/days.js";
import { type Simulator, startSimulator } from "../src/simulator/server.js";
import { dec, int, log } from "./lib.js";
import { syncSimulator } from "./simulator-sync.js";

const LAST_DAY = "2026-11-22";

export interface HistoryResult {
  locations: number;
  days: number;
  steps: number;
  orders: number;
  bytesPerOrderOn: number;
  bytesPerOrderOff: number;
  versions: number;
  bytesPerVersion: number;
  plannedChangesPerOrder: number;
  steadyStateBytesPerOrder: number;
  steadyStateShare: number;
}

async function syncOnce(simulator: Simulator, path: string, keepHistory: boolean): Promise<void> {
  await syncSimulator(simulator, path, { keepHistory });
}

/** A backfill, then one sync a day for `steps` days; returns the simulator (closed). */
async function syncStepped(
  options: { locations: number; days: number; steps: number },
  path: string,
  keepHistory: boolean,
): Promise<Simulator> {
  const simulator = await startSimulator({
    seed: 15,
    locations: options.locations,
    days: options.days - options.steps,
    today: addDays(LAST_DAY, -options.steps),
  });
  try {
    await syncOnce(simulator, path, keepHistory);
    for (let step = 0; step < options.steps; step++) {
      simulator.dataset.advanceDay();
      await syncOnce(simulator, path, keepHistory);
    }
  } finally {
    await simulator.close();
  }
  return simulator;
}

function fileFigures(path: string) {
  const db = new Database(path);
  db.pragma("wal_checkpoint(TRUNCATE)");
  const orders = Number(db.prepare("SELECT COUNT(*) FROM orders").pluck().get());
  const versions = Number(db.prepare("SELECT COUNT(*) FROM order_versions").pluck().get());
  const versionBytes = Number(
    db
      .prepare("SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name LIKE '%order_version%'")
      .pluck()
      .get(),
  );
  // Pages in use: a file keeps the pages a rewrite freed, which says nothing of history.
  const usedBytes = Number(db.prepare("SELECT SUM(pgsize) FROM dbstat").pluck().get());
  db.close();
  return { orders, versions, versionBytes, usedBytes, fileBytes: statSync(path).size };
}

export async function benchHistory(options: {
  locations: number;
  days: number;
  steps: number;
  dir: string;
}): Promise<HistoryResult> {
  const { locations, days, steps, dir } = options;
  log(
    `7. order history: ${locations} locations × ${days} days, then a sync a day for ${steps} days, with history on and off…`,
  );
  const on = join(dir, "history-on.sqlite");
  const off = join(dir, "history-off.sqlite");
  const simulator = await syncStepped({ locations, days, steps }, on, true);
  await syncStepped({ locations, days, steps }, off, false);
  const withHistory = fileFigures(on);
  const without = fileFigures(off);
  rmSync(on, { force: true });
  rmSync(off, { force: true });
  const { dataset } = simulator;
  const planned = dataset.locations.reduce((n, l) => n + dataset.plannedChanges(l).length, 0);
  const plannedChangesPerOrder = planned / withHistory.orders;
  const bytesPerOrderOff = without.usedBytes / without.orders;
  const bytesPerVersion = withHistory.versionBytes / Math.max(1, withHistory.versions);
  const steadyStateBytesPerOrder = bytesPerVersion * plannedChangesPerOrder;
  const result: HistoryResult = {
    locations,
    days,
    steps,
    orders: withHistory.orders,
    bytesPerOrderOn: withHistory.usedBytes / withHistory.orders,
    bytesPerOrderOff,
    versions: withHistory.versions,
    bytesPerVersion,
    plannedChangesPerOrder,
    steadyStateBytesPerOrder,
    steadyStateShare: steadyStateBytesPerOrder / bytesPerOrderOff,
  };
  log(
    `   ${int(result.orders)} orders; ${int(result.bytesPerOrderOff)} bytes per order in use without history (file ${int(without.fileBytes / without.orders)}), ${int(result.bytesPerOrderOn)} with it (${int(result.versions)} versions kept, ${int(bytesPerVersion)} bytes each)`,
  );
  log(
    `   every change seen: ${dec(plannedChangesPerOrder * 100)} planned changes per 100 orders × ${int(bytesPerVersion)} bytes = ${int(steadyStateBytesPerOrder)} bytes per order, ${dec(result.steadyStateShare * 100)} % (<= 10 %)`,
  );
  return result;
}
