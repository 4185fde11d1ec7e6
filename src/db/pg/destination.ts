/**
 * The PostgreSQL destination: the storage port the sync writes through (destination.ts), over a
 * pool of connections sized by the run's concurrency, so that pages of different windows are
 * written side by side. Each call is one transaction. A dedicated session holds the run's
 * advisory lock (checkpoints.ts), which dies with the connection if the process does.
 *
 * Rows come normalized by the sync (sync/normalize-page.ts, the streams' toRows). The writes of
 * records are written once for both databases (sync-writes.ts) and run here on a store bound to
 * the write's transaction, whose writers carry out the rules' plans set-based (day-writer.ts,
 * snapshot-writer.ts). Reads are the stores of reads (../reads/), on the same pool.
 */
import type { ValidatedRecords } from "../../api/validate.js";
import type { PostgresTarget } from "../../config/config.js";
import type { DayStream, RunTrigger } from "../../vocabulary.js";
import type {
  Destination,
  KeptBesideRows,
  ListCounts,
  PageCounts,
  RunEnd,
} from "../destination.js";
import type { ListContext } from "../list-snapshot.js";
import type { PageHeader } from "../normalize/page.js";
import {
  type DayStreamTables,
  type Identified,
  PerStream,
  type SnapshotListTables,
} from "../normalize/stream-tables.js";
import type { ArchiveTerms } from "../raw/terms.js";
import { composeReader, type Reader } from "../reads/reader.js";
import { ReadSession } from "../reads/session.js";
import type { IncomingRecord } from "../rules/day-page.js";
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
import { storedLocationSql } from "../sql/locations.js";
import { columnNames, tableName } from "../sql/table.js";
import { SqlDestination } from "../sql-destination.js";
import { runAwaiting, type Steps, type StoredLocation, type WriteStore } from "../write-store.js";
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
import { pgSession, pgWhere } from "./reader.js";
import { keepOnlyRejects, recordRejects, resolveStoredRejects } from "./rejects.js";
import { markDays, markReports, settle } from "./rollups.js";
import { RowsInserter } from "./rows.js";
import { locations, pgTableOf } from "./schema.js";
import { LockSession } from "./session.js";
import { PgSnapshotWriter } from "./snapshot-writer.js";
import { inTransaction } from "./transaction.js";
import { PgTurnReads } from "./turns.js";

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

/** Writes, and reads through the stores of reads (`reads`) on the same pool. */
export class PgDestination extends SqlDestination implements Destination {
  readonly reads: Reader;
  private readonly archive: PgRawArchive;
  private readonly keepHistory: boolean;
  private readonly clocks = new PgLocationClocks();
  private readonly apiIds = new PgApiIds();
  // The streams name the contract's tables; the writers take PostgreSQL's, mapped here once.
  private readonly dayWriters = new PerStream<DayStreamTables, PgDayWriter>((stream) => {
    const table = pgTableOf(stream.table);
    const childTables = stream.childTables.map(pgTableOf);
    const history =
      this.keepHistory && stream.history
        ? new PgVersionHistory(table, childTables, {
            table: pgTableOf(stream.history.table),
            paidFrom: pgTableOf(stream.history.paidFrom),
          })
        : undefined;
    return new PgDayWriter(table, childTables, this.archive, this.apiIds, history);
  });
  private readonly listWriters = new PerStream<SnapshotListTables, PgSnapshotWriter>(
    (list) =>
      new PgSnapshotWriter(pgTableOf(list.table), list.childTables.map(pgTableOf), this.archive),
  );
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
    super();
    this.read = read;
    // The time zones come from the clocks the writes keep (location-clocks.ts).
    this.reads = composeReader(new ReadSession(pgSession(read), pgWhere(target)), {
      timeZoneOf: (locationId) =>
        this.read(async (client) => (await this.clocks.clockOf(client, locationId)).timeZone),
      turns: (session) => new PgTurnReads(session),
    });
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

  async close(): Promise<void> {
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
      await settle(client, window.locationId, this.records.daysToSettle.of(window));
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
  // Records.

  useTimeZone(locationId: string, timeZone: string | null) {
    return this.transaction((client) => this.clocks.apply(client, locationId, timeZone)).catch(
      (error: unknown) => {
        this.clocks.forget(locationId);
        throw error;
      },
    );
  }

  /** The archive keeps the text as it came: no dictionary to compress it with. */
  archiveTerms(_stream: DayStreamTables): Promise<ArchiveTerms> {
    return Promise.resolve(this.archive.keep ? { keep: true, dictionary: null } : { keep: false });
  }
  /** Writes the page, with its rejects, in one transaction; the keys of the ids its rows keep
   * by key are learned before, on a connection of their own (api-ids.ts). */
  override async writePage(
    stream: DayStreamTables,
    page: PageHeader,
    records: readonly IncomingRecord[],
  ): Promise<PageCounts> {
    this.touched.add(page.locationId);
    const unknown = this.dayWriters.of(stream).unknownIds(records);
    if (unknown.length > 0) await this.read((client) => this.apiIds.learn(client, unknown));
    return super.writePage(stream, page, records);
  }

  override writeList(
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ): Promise<ListCounts> {
    this.touched.add(context.locationId);
    return super.writeList(list, validated, context);
  }

  protected perform<T>(steps: Steps<T>): Promise<T> {
    return this.transaction((client) => runAwaiting(steps, this.storeOn(client)));
  }

  /** The store the sync's writes run on (write-store.ts), inside one transaction. */
  private storeOn(client: PgClient): WriteStore {
    return {
      writeRecords: (stream, records, syncedAt, repair) =>
        this.dayWriters.of(stream).write(client, records, syncedAt, repair),
      markVanished: async (stream, ids, at) => {
        const marked = await this.dayWriters.of(stream).markDeleted(client, ids, at);
        for (const { locationId } of marked.days) this.touched.add(locationId);
        return marked;
      },
      writeSnapshot: (list, snapshot) => this.listWriters.of(list).write(client, snapshot),
      markDays: (days) => markDays(client, days),
      markReports: (locationId, reportIds) => markReports(client, locationId, reportIds),
      recordRejects: (rejects, context) => recordRejects(client, rejects, context),
      resolveStoredRejects: (locationId, stream, ids) =>
        resolveStoredRejects(client, locationId, stream, ids),
      keepOnlyRejects: (locationId, stream, day, keys) =>
        keepOnlyRejects(client, locationId, stream, day, keys),
      storedLocation: async (id) =>
        (await client.query<StoredLocation>(storedLocationSql(PG), [id])).rows[0],
      putLocation: async (row, raw) => {
        await UPSERT_LOCATION.insert(client, [row]);
        await this.archive.put(
          client,
          [{ tableName: tableName(locations), locationId: row.id, id: row.id, raw }],
          row.synced_at,
        );
      },
      noteKeyLocation: (fingerprint, locationId) =>
        recordClaimLocation(client, fingerprint, locationId),
      saveState: (locationId, name, value, now) =>
        execute(client, saveStateSql(PG), [locationId, name, value, now]),
    };
  }
}
