/**
 * The PostgreSQL destination: the storage port the sync writes through (destination.ts), over a
 * pool of connections sized by the run's concurrency, so that pages of different windows are
 * written side by side. Each call is one transaction. A dedicated session holds the run's
 * advisory lock (checkpoints.ts), which dies with the connection if the process does.
 *
 * Rows come normalized by the sync (sync/normalize-page.ts, the streams' toRows) and are written set-based
 * (day-writer.ts, snapshot-writer.ts); the rules of what is inserted, replaced, kept, marked
 * deleted or set aside are the SQLite writers' own.
 */
import type { Location } from "../../api/schemas.js";
import {
  type RejectedRecord,
  rejectKey,
  type ValidatedRecords,
  type ValidRecord,
} from "../../api/validate.js";
import { describePostgresUrl, type PostgresTarget } from "../../config/config.js";
import type { DayStream, RunTrigger } from "../../vocabulary.js";
import type {
  KeptBesideRows,
  ListCounts,
  ListedDevices,
  LocationCounts,
  PageCounts,
  RunEnd,
  SyncDestination,
} from "../destination.js";
import { type ListContext, listSnapshot } from "../list-snapshot.js";
import { normalizeLocation } from "../normalize/catalog.js";
import { type PageHeader, rewriteOf } from "../normalize/page.js";
import {
  type DayStreamTables,
  type Identified,
  PerStream,
  type SnapshotListTables,
} from "../normalize/stream-tables.js";
import type { ArchiveTerms } from "../raw/terms.js";
import { AUDIT_PACE_STATE, START_DATE_STATE, UTC_OFFSET_STATE } from "../reads/base.js";
import { SqlReader } from "../reads/reader.js";
import { listRejectContext, locationRejectContext, pageRejectContext } from "../reject-rows.js";
import type { IncomingRecord } from "../rules/day-page.js";
import type { SnapshotCounts } from "../rules/snapshot.js";
import { locations, relationName } from "../schema/index.js";
import {
  finishRunParams,
  finishRunSql,
  type RepairRecord,
  recordAuditProofSql,
  recordRepairParams,
  recordRepairSql,
  recordWindowParams,
  recordWindowSql,
  saveStateSql,
  type WindowRecord,
} from "../sql/checkpoints.js";
import { POSTGRES_DIALECT } from "../sql/dialect.js";
import { DaysToSettle, summariesToMark } from "../sql/rollups.js";
import { columnNames, tableName } from "../sql/table.js";
import { PgApiIds } from "./api-ids.js";
import * as checkpoints from "./checkpoints.js";
import { PgLocationClaims, recordClaimLocation } from "./claims.js";
import { connect, lending, type PgClient, type PgPool } from "./connect.js";
import { PgDayWriter } from "./day-writer.js";
import { isPostgresStorageFailure, postgresError } from "./errors.js";
import { PgVersionHistory } from "./history.js";
import { PgLocationClocks } from "./location-clocks.js";
import { openPostgres } from "./open.js";
import { PgRawArchive } from "./raw-archive.js";
import { pgSession } from "./reader.js";
import { keepOnlyRejects, recordRejects, resolveStoredRejects } from "./rejects.js";
import { markDays, markReports, settle } from "./rollups.js";
import { RowsInserter } from "./rows.js";
import { LockSession } from "./session.js";
import { PgSnapshotWriter } from "./snapshot-writer.js";
import { inTransaction } from "./transaction.js";

// The time zone is a setting, applied by useTimeZone alone.
const UPSERT_LOCATION = RowsInserter.of(
  locations,
  `ON CONFLICT (id) DO UPDATE SET ${columnNames(locations, ["id", "time_zone"])
    .map((c) => `"${c}" = excluded."${c}"`)
    .join(", ")}`,
  ["time_zone"],
);

export interface PgDestinationOptions extends KeptBesideRows {
  /** Connections for the writes: the run's concurrency. */
  poolSize: number;
}

const PG = POSTGRES_DIALECT;

/** Runs a statement of the run log or the checkpoints (sql/checkpoints.ts). */
async function execute(client: PgClient, sql: string, params: unknown[]): Promise<void> {
  await client.query(sql, params);
}

/** Runs `work`; a failure of the server or the connection becomes a DatabaseError, which stops
 * the run, anything else (a record the server refused) fails the work at hand. */
async function guarded<T>(target: PostgresTarget, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isPostgresStorageFailure(error)) throw postgresError(error, target, "write to");
    throw error;
  }
}

/** Writes, and reads as every destination reads (SqlReader). */
export class PgDestination extends SqlReader implements SyncDestination {
  private readonly archive: PgRawArchive;
  private readonly keepHistory: boolean;
  private readonly clocks = new PgLocationClocks();
  private readonly apiIds = new PgApiIds();
  private readonly dayWriters = new PerStream<DayStreamTables, PgDayWriter>((stream) => {
    const history =
      this.keepHistory && stream.history
        ? new PgVersionHistory(stream.table, stream.childTables, stream.history)
        : undefined;
    return new PgDayWriter(stream.table, stream.childTables, this.archive, this.apiIds, history);
  });
  private readonly listWriters = new PerStream<SnapshotListTables, PgSnapshotWriter>(
    (list) => new PgSnapshotWriter(list.table, list.childTables, this.archive),
  );
  private readonly daysToSettle = new DaysToSettle();
  /** Locations this destination wrote, whose summaries the end of the run settles. */
  private readonly touched = new Set<string>();
  /** Runs a read, or a single statement: no transaction of its own needed. */
  private readonly read: ReturnType<typeof lending>;
  readonly claims: PgLocationClaims;

  private constructor(
    private readonly target: PostgresTarget,
    private readonly pool: PgPool,
    /** Holds the run's advisory lock for as long as the destination is open. */
    private readonly session: LockSession,
    options: PgDestinationOptions,
  ) {
    const read = lending(pool, target, (error) =>
      isPostgresStorageFailure(error) ? postgresError(error, target, "write to") : error,
    );
    super(pgSession(read), `${describePostgresUrl(target.url)} (schema ${target.schema})`);
    this.read = read;
    this.archive = new PgRawArchive(options.keepRaw);
    this.keepHistory = options.keepHistory ?? true;
    this.claims = new PgLocationClaims(session, (work) => this.read(work));
  }

  /** Connects, migrating the schema first (migrate.ts). */
  static async open(target: PostgresTarget, options: PgDestinationOptions): Promise<PgDestination> {
    // One more connection than the writes use: the session that holds the run's lock.
    const { pool } = await openPostgres(target, options.poolSize + 1);
    try {
      const session = new LockSession(await connect(pool, target));
      return new PgDestination(target, pool, session, options);
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  override async close(): Promise<void> {
    this.session.release();
    await this.pool.end();
  }

  private transaction<T>(work: (client: PgClient) => Promise<T>): Promise<T> {
    return guarded(this.target, () => inTransaction(this.pool, this.target, work));
  }

  // The run log and checkpoints.

  closeAbandonedRuns(now: string) {
    return this.transaction((client) => checkpoints.closeAbandonedRuns(client, now));
  }
  async startRun(trigger: RunTrigger, startedAt: string) {
    const started = await guarded(this.target, () =>
      this.session.use((session) => checkpoints.startRun(session, trigger, startedAt)),
    );
    this.claims.startRun(started.serverStartedAt);
    return started.runId;
  }
  async finishRun(runId: number, end: RunEnd) {
    // Whatever a window left marked (a window that failed midway) is summed before the end.
    for (const locationId of this.touched) {
      await this.transaction((client) => settle(client, locationId));
    }
    await this.transaction((client) =>
      execute(client, finishRunSql(PG), finishRunParams(runId, end)),
    );
    // A worker that died during this run (its locks gone) is recorded now, not at the next start.
    await this.transaction((client) => checkpoints.closeAbandonedRuns(client, end.finishedAt));
    await guarded(this.target, () =>
      this.session.use((session) => checkpoints.releaseRun(session, runId)),
    );
  }
  /** Records a window, and sums its day (DaysToSettle) and the location's marked reports. */
  recordWindow(window: WindowRecord, now: string) {
    return this.transaction(async (client) => {
      await settle(client, window.locationId, this.daysToSettle.of(window));
      await execute(client, recordWindowSql(PG), recordWindowParams(window, now));
    });
  }
  recordAuditProof(locationId: string, stream: DayStream, day: string, now: string) {
    return this.read((client) =>
      execute(client, recordAuditProofSql(PG), [locationId, stream, day, now]),
    );
  }
  recordRepair(repair: RepairRecord) {
    return this.read((client) => execute(client, recordRepairSql(PG), recordRepairParams(repair)));
  }
  saveAuditPace(locationId: string, pace: string, now: string) {
    return this.read((client) =>
      execute(client, saveStateSql(PG), [locationId, AUDIT_PACE_STATE, pace, now]),
    );
  }
  saveStartDate(locationId: string, day: string, now: string) {
    return this.read((client) =>
      execute(client, saveStateSql(PG), [locationId, START_DATE_STATE, day, now]),
    );
  }
  saveUtcOffsetMinutes(locationId: string, minutes: number, now: string) {
    return this.read((client) =>
      execute(client, saveStateSql(PG), [locationId, UTC_OFFSET_STATE, String(minutes), now]),
    );
  }

  // Records.

  writeLocation(
    valid: ValidRecord<Location>,
    context: { syncedAt: string; apiKeyFingerprint: string },
    devices?: ListedDevices,
  ): Promise<LocationCounts> {
    return this.transaction(async (client) => {
      const row = normalizeLocation(valid.record, valid.raw, context);
      const { rows } = await client.query<{
        content_hash: number | null;
        api_key_fingerprint: string | null;
      }>("SELECT content_hash, api_key_fingerprint FROM locations WHERE id = $1", [row.id]);
      const stored = rows[0];
      const unchanged =
        stored?.content_hash === row.content_hash &&
        stored.api_key_fingerprint === row.api_key_fingerprint;
      await recordClaimLocation(client, context.apiKeyFingerprint, row.id);
      if (!unchanged) {
        await UPSERT_LOCATION.insert(client, [row]);
        await this.archive.put(
          client,
          [{ tableName: tableName(locations), locationId: row.id, id: row.id, raw: valid.raw }],
          row.synced_at,
        );
      }
      const location: LocationCounts["location"] =
        stored === undefined ? "inserted" : unchanged ? "unchanged" : "updated";
      if (!devices) return { location, devices: undefined };
      const listed = { records: [...devices.records], rejects: [] };
      const listContext = { locationId: row.id, syncedAt: context.syncedAt, runId: null };
      return {
        location,
        devices: await this.snapshot(client, devices.list, listed, listContext),
      };
    });
  }

  useTimeZone(locationId: string, timeZone: string | null) {
    return this.transaction((client) => this.clocks.apply(client, locationId, timeZone)).catch(
      (error: unknown) => {
        this.clocks.forget(locationId);
        throw error;
      },
    );
  }

  recordLocationReject(
    reject: RejectedRecord,
    context: { runId: number | null; rejectedAt: string },
  ) {
    return this.transaction((client) =>
      recordRejects(client, [reject], locationRejectContext(reject, context)),
    );
  }

  writeList(
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ): Promise<ListCounts> {
    this.touched.add(context.locationId);
    return this.transaction(async (client) => {
      const counts = await this.snapshot(client, list, validated, context);
      // The list is whole: its rejects replace the earlier ones.
      await keepOnlyRejects(
        client,
        context.locationId,
        list.name,
        null,
        validated.rejects.map(rejectKey),
      );
      await recordRejects(client, validated.rejects, listRejectContext(list.name, context));
      return { ...counts, rejected: validated.rejects.length };
    });
  }

  private snapshot(
    client: PgClient,
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ): Promise<SnapshotCounts> {
    return this.listWriters.of(list).write(client, listSnapshot(list, validated, context));
  }

  override timeZoneOf(locationId: string) {
    return this.read(async (client) => (await this.clocks.clockOf(client, locationId)).timeZone);
  }
  /** The archive keeps the text as it came: no dictionary to compress it with. */
  archiveTerms(_stream: DayStreamTables): Promise<ArchiveTerms> {
    return Promise.resolve(this.archive.keep ? { keep: true, dictionary: null } : { keep: false });
  }
  /** Writes the page, with its rejects, in one transaction. */
  async writePage(
    stream: DayStreamTables,
    page: PageHeader,
    records: readonly IncomingRecord[],
  ): Promise<PageCounts> {
    this.touched.add(page.locationId);
    const writer = this.dayWriters.of(stream);
    const unknown = writer.unknownIds(records);
    if (unknown.length > 0) await this.read((client) => this.apiIds.learn(client, unknown));
    return this.transaction(async (client) => {
      const { counts, earlierDays } = await writer.write(
        client,
        records,
        page.syncedAt,
        rewriteOf(page),
      );
      const ids = records.map((r) => r.rows.parent.id);
      if (counts.inserted + counts.updated > 0) {
        const marks = summariesToMark(stream, page, { ids, earlierDays });
        this.daysToSettle.marked(stream, marks.days);
        await markDays(client, marks.days);
        await markReports(client, page.locationId, marks.reports);
      }
      await resolveStoredRejects(client, page.locationId, stream.name, ids);
      await recordRejects(client, page.rejects, pageRejectContext(stream.name, page));
      return { ...counts, rejected: page.rejects.length };
    });
  }

  forgetFixedRejects(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    rejects: readonly RejectedRecord[],
  ) {
    return this.read((client) =>
      keepOnlyRejects(client, locationId, stream.name, day, rejects.map(rejectKey)),
    );
  }

  markDeleted(stream: DayStreamTables, ids: readonly string[], at: string) {
    if (ids.length === 0) return Promise.resolve(0);
    const table = tableName(stream.table);
    return this.transaction(async (client) => {
      await this.dayWriters.of(stream).keepVanished(client, ids, at);
      // The relation names the location; the table may keep it by key (api_ids).
      const { rows } = await client.query<{ location_id: string; business_date: string }>(
        `WITH marked AS (
           UPDATE "${table}" SET deleted_at = $1 WHERE id = ANY($2::text[]) AND deleted_at IS NULL
           RETURNING id
         )
         SELECT r.location_id, r.business_date FROM "${relationName(stream.table)}" r
         JOIN marked m ON m.id = r.id`,
        [at, ids],
      );
      if (rows.length > 0 && stream.summarized === "days") {
        const days = rows.map((r) => ({ locationId: r.location_id, day: r.business_date }));
        this.daysToSettle.marked(stream, days);
        await markDays(client, days);
      }
      for (const row of rows) this.touched.add(row.location_id);
      return rows.length;
    });
  }

  recordRejects(
    stream: string,
    rejects: readonly RejectedRecord[],
    context: { locationId: string; runId: number | null; rejectedAt: string; requestedId?: string },
  ) {
    return this.transaction((client) =>
      recordRejects(client, rejects, { ...context, stream, day: null }),
    );
  }
}
