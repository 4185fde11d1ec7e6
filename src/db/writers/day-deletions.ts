/**
 * Soft deletion of orders and reports: a record that a complete read of its day no longer lists
 * keeps its rows (for audit) and gets `deleted_at`; every view leaves it out. ReplacingWriter
 * clears the mark when the record is listed again.
 */
import type Database from "better-sqlite3";

type DayTable = "orders" | "reports";

export class DayDeletions {
  private readonly statements: Record<
    DayTable,
    {
      live: Database.Statement<[string, string], number>;
      unlisted: Database.Statement<[string, string, string], string>;
      mark: Database.Statement<[string, string]>;
    }
  >;
  private readonly listedByReport: Database.Statement<[string, string], string>;

  constructor(sqlite: Database.Database) {
    const prepare = (table: DayTable) => ({
      live: sqlite
        .prepare<[string, string], number>(
          `SELECT COUNT(*) FROM "${table}" WHERE location_id = ? AND business_date = ? AND deleted_at IS NULL`,
        )
        .pluck(),
      unlisted: sqlite
        .prepare<[string, string, string], string>(
          `SELECT id FROM "${table}" WHERE location_id = ? AND business_date = ? AND deleted_at IS NULL
           AND id NOT IN (SELECT value FROM json_each(?))`,
        )
        .pluck(),
      mark: sqlite.prepare<[string, string]>(
        `UPDATE "${table}" SET deleted_at = ? WHERE id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL`,
      ),
    });
    this.statements = { orders: prepare("orders"), reports: prepare("reports") };
    this.listedByReport = sqlite
      .prepare<[string, string], string>(
        `SELECT DISTINCT ro.order_id FROM report_orders ro JOIN reports r ON r.id = ro.report_id
         WHERE r.location_id = ? AND r.deleted_at IS NULL
           AND ro.order_id IN (SELECT value FROM json_each(?))`,
      )
      .pluck();
  }

  /** Of these orders, the ones a live stored report lists. */
  listedByLiveReport(locationId: string, orderIds: readonly string[]): string[] {
    if (orderIds.length === 0) return [];
    return this.listedByReport.all(locationId, JSON.stringify(orderIds));
  }

  /** Live records of a day, the listed ones included. */
  liveCount(table: DayTable, locationId: string, day: string): number {
    return this.statements[table].live.get(locationId, day) ?? 0;
  }

  /** Live records of a day that are not among the listed ids. */
  unlisted(
    table: DayTable,
    locationId: string,
    day: string,
    listedIds: readonly string[],
  ): string[] {
    return this.statements[table].unlisted.all(locationId, day, JSON.stringify(listedIds));
  }

  markDeleted(table: DayTable, ids: readonly string[], at: string): number {
    if (ids.length === 0) return 0;
    return this.statements[table].mark.run(at, JSON.stringify(ids)).changes;
  }
}
