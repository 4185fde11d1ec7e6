/** Records set aside because they broke the spec: one row per bad record, kept up to date, and
 * removed once the API sends a valid version or stops listing it. */
import type Database from "better-sqlite3";
import type { RejectedRecord } from "../../api/validate.js";
import { type RejectContext, rejectRow } from "../reject-rows.js";
import { rejectedRecords } from "../schema/index.js";
import { upsertSql } from "./rows.js";

export class RejectWriter {
  private readonly upsert: Database.Statement;
  private readonly resolve: Database.Statement<[string, string, string]>;
  private readonly anyFor: Database.Statement<[string, string]>;
  private readonly keepOnlyInList: Database.Statement<[string, string, string]>;
  private readonly keepOnlyInDay: Database.Statement<[string, string, string, string]>;

  constructor(sqlite: Database.Database) {
    // A read by id knows no window and may not know the id: it must not erase what the
    // window read of the same record recorded.
    this.upsert = sqlite.prepare(
      upsertSql(
        rejectedRecords,
        ["location_id", "stream", "record_key"],
        ["id"],
        ["day", "record_id"],
      ),
    );
    const inKeys = "record_key IN (SELECT value FROM json_each(?))";
    this.resolve = sqlite.prepare(
      `DELETE FROM rejected_records WHERE location_id = ? AND stream = ? AND ${inKeys}`,
    );
    this.anyFor = sqlite.prepare(
      "SELECT 1 FROM rejected_records WHERE location_id = ? AND stream = ? LIMIT 1",
    );
    this.keepOnlyInList = sqlite.prepare(
      `DELETE FROM rejected_records WHERE location_id = ? AND stream = ? AND NOT ${inKeys}`,
    );
    this.keepOnlyInDay = sqlite.prepare(
      `DELETE FROM rejected_records WHERE location_id = ? AND stream = ? AND day = ? AND NOT ${inKeys}`,
    );
  }

  /** Records rejects; call inside the transaction that stores the rest of their page. */
  record(rejects: readonly RejectedRecord[], context: RejectContext): void {
    for (const reject of rejects) this.upsert.run(rejectRow(reject, context));
  }

  /** Forgets the rejects of records that have now been stored valid. */
  resolveStored(locationId: string, stream: string, storedIds: readonly string[]): void {
    if (storedIds.length === 0 || this.anyFor.get(locationId, stream) === undefined) return;
    this.resolve.run(locationId, stream, JSON.stringify(storedIds));
  }

  /** Forgets the rejects of a list (day null) or a day window that its latest complete read no
   * longer returned as rejects. */
  keepOnly(
    locationId: string,
    stream: string,
    day: string | null,
    keys: readonly string[],
  ): number {
    const json = JSON.stringify(keys);
    const result =
      day === null
        ? this.keepOnlyInList.run(locationId, stream, json)
        : this.keepOnlyInDay.run(locationId, stream, day, json);
    return result.changes;
  }
}
