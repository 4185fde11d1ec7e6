/**
 * A group of writes that SQLite rolls back whole (group-commit.ts) takes every window's pages in
 * it, not only those of the write that failed. A window that counted its stored rows before the
 * loss, and records itself after it, must not be recorded proven: the next run reads it again,
 * stores every row, and verify is clean. The disk fills at the worst moment every time: right
 * after the first window counted rows that are not committed yet, and before it records itself
 * (`PRAGMA max_page_count`, so that the next write to grow the file meets SQLITE_FULL, as on a
 * full disk); the counting window waits until another window's write (a page or a window's
 * record) has met it. In the sync's own thread,
 * and across the message port a sync in a worker thread writes through.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import { DatabaseError } from "../src/db/errors.js";
import type { PageHeader } from "../src/db/normalize/page.js";
import type { DayStreamTables } from "../src/db/normalize/stream-tables.js";
import type { IncomingRecord } from "../src/db/rules/day-page.js";
import type { WindowRecord } from "../src/db/sql/checkpoints.js";
import { tableName } from "../src/db/sql/table.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import type { Db } from "../src/db/sqlite/open.js";
import { runVerify } from "../src/proof/verify.js";
import { FAST_RETRY } from "./helpers/client.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { captureLogs } from "./helpers/logs.js";
import { acrossPort } from "./helpers/port.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";
import { simulatorConfig, simulatorNow, syncInto, syncOnce } from "./helpers/sync.js";

const RANGE = { since: addDays(TEST_TODAY, -6), until: addDays(TEST_TODAY, -1) };
/** Day windows recorded complete whose stored rows are not what the record says. */
const UNBACKED_WINDOWS = `
  SELECT w.stream, w.day, w.stored_count, CASE w.stream
    WHEN 'orders' THEN (SELECT COUNT(*) FROM orders o
      WHERE o.location_id = w.location_id AND o.business_date = w.day AND o.deleted_at IS NULL)
    ELSE (SELECT COUNT(*) FROM reports r
      WHERE r.location_id = w.location_id AND r.business_date = w.day AND r.deleted_at IS NULL)
    END AS stored_rows
  FROM sync_windows w
  WHERE w.status = 'complete' AND w.stream IN ('orders', 'reports') AND stored_rows <> w.stored_count`;

const tempPath = useTempDir();
const sim = useSimulator({ seed: 61, locations: 2, days: 8, ordersPerDay: [30, 60] });

/** The SQLite destination whose disk fills after the first count that found rows of its group. */
class DiskFillsAfterFirstCount extends SqliteDestination {
  private filled = false;
  /** Sees what is committed, as another process would. */
  private readonly committed = new Database(this.db.path, { readonly: true });
  private diskFull: () => void = () => {};
  private readonly writeMetFullDisk = new Promise<void>((resolve) => {
    this.diskFull = resolve;
  });

  /** The records of the window that counted rows of the group the disk then lost. */
  counted: { table: string; ids: readonly string[] } | undefined;

  override async countStored(stream: DayStreamTables, ids: readonly string[]) {
    const stored = await super.countStored(stream, ids);
    if (this.filled || stored === this.committedCount(stream, ids)) return stored;
    this.filled = true;
    this.counted = { table: tableName(stream.table), ids };
    const { sqlite } = this.db;
    const room = sqlite.pragma("max_page_count", { simple: true });
    sqlite.pragma(`max_page_count = ${sqlite.pragma("page_count", { simple: true })}`);
    await this.writeMetFullDisk;
    sqlite.pragma(`max_page_count = ${room}`);
    return stored;
  }

  private committedCount(stream: DayStreamTables, ids: readonly string[]): number {
    const table = tableName(stream.table);
    return this.committed
      .prepare(`SELECT COUNT(*) FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`)
      .pluck()
      .get(JSON.stringify(ids)) as number;
  }

  /** Commits what is in hand, and closes the second connection (the file stays open). */
  async done(): Promise<void> {
    this.committed.close();
    await this.commit();
  }

  override writePage(
    stream: DayStreamTables,
    page: PageHeader,
    records: readonly IncomingRecord[],
  ) {
    return this.noticing(super.writePage(stream, page, records));
  }

  // Another window's record may be the write that needs a new page first.
  override recordWindow(window: WindowRecord, now: string) {
    return this.noticing(super.recordWindow(window, now));
  }

  private async noticing<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } catch (error) {
      if (error instanceof DatabaseError && error.code === "SQLITE_FULL") this.diskFull();
      throw error;
    }
  }
}

/** The destination a sync writes through, in its own thread or across a message port; `done`
 * commits what is in hand and leaves the connection open. */
function destinationFor(db: Db, path: "in-process" | "across the port") {
  const local = new DiskFillsAfterFirstCount(db, {
    keepRaw: true,
    compressAhead: path === "across the port",
  });
  if (path === "in-process") return { destination: local, local, done: () => local.done() };
  const { destination, close } = acrossPort(local);
  return {
    destination,
    local,
    done: async () => {
      await destination.close();
      await close();
      await local.done();
    },
  };
}

describe.each(["in-process", "across the port"] as const)(
  "a group rolled back under windows that counted their rows (%s)",
  (path) => {
    it("records no window proven after the loss, and the next run stores every row", async () => {
      const db = openTestDb(tempPath());
      const destination = destinationFor(db, path);
      const { done } = destination;
      const failed = await syncInto(sim.current, destination.destination, { range: RANGE });
      await done();
      expect(failed.result.status).toBe("failed");
      expect(failed.result.error).toMatch(/the disk is full \(SQLITE_FULL\)/);
      expect(rows(db, UNBACKED_WINDOWS)).toEqual([]);
      // The windows as the failed run left them: the one that counted before the loss (recorded
      // failed for it, or stopped by the run's end, whichever came first) is not proven.
      const recorded = rows(db, "SELECT stream, day, status, last_error FROM sync_windows");

      // A plain incremental run with no lookback reads only what is not proven.
      const again = await syncOnce(sim.current, db, {
        configOverrides: { lookbackDays: 0, startDate: RANGE.since },
      });
      expect(again.result.status).toBe("succeeded");
      expect(await compareWithDataset(db, sim.current.dataset, RANGE)).toEqual([]);
      const { counted } = destination.local;
      if (!counted) throw new Error("no window counted rows before the disk filled");
      const [countedDay] = rows(
        db,
        `SELECT DISTINCT business_date AS day FROM ${counted.table} WHERE id IN (SELECT value FROM json_each(?))`,
        JSON.stringify(counted.ids),
      );
      const countedWindow = recorded.find(
        (w) => w.stream === counted.table && w.day === countedDay?.day,
      );
      expect(["failed", "interrupted", undefined]).toContain(countedWindow?.status);
      const verified = await runVerify({
        config: simulatorConfig(sim.current),
        destination: new SqliteDestination(db, { keepRaw: true }).reads,
        logger: captureLogs("warn").logger,
        range: RANGE,
        now: simulatorNow(sim.current),
        transport: { retry: FAST_RETRY },
      });
      expect(verified.locations.flatMap((l) => l.mismatches)).toEqual([]);
      expect(verified.ok).toBe(true);
      db.close();
    });
  },
);

describe("a write that fails for a reason of its own", () => {
  it("takes its group along and stops the run; the next run stores every row", async () => {
    const db = openTestDb(tempPath());
    // A refusal of the schema's, as a constraint gives, once the group already holds pages of
    // other windows: not the disk, which SQLite would roll back itself.
    db.sqlite.exec(`CREATE TEMP TRIGGER refuse_items BEFORE INSERT ON main.order_item_rows
      WHEN (SELECT COUNT(*) FROM main.order_item_rows) >= 300
      BEGIN SELECT RAISE(ABORT, 'a row the schema refuses'); END`);
    const destination = new SqliteDestination(db, { keepRaw: true });
    const failed = await syncInto(sim.current, destination, { range: RANGE });
    await destination.commit();
    expect(failed.result.status).toBe("failed");
    expect(failed.result.error).toMatch(/cannot write to the database .*a row the schema refuses/);
    expect(rows(db, UNBACKED_WINDOWS)).toEqual([]);
    expect(db.sqlite.inTransaction).toBe(false);
    db.sqlite.exec("DROP TRIGGER temp.refuse_items");

    const again = await syncOnce(sim.current, db, {
      configOverrides: { lookbackDays: 0, startDate: RANGE.since },
    });
    expect(again.result.status).toBe("succeeded");
    expect(await compareWithDataset(db, sim.current.dataset, RANGE)).toEqual([]);
    db.close();
  });
});
