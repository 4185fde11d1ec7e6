/** The daemon's hold on a PostgreSQL database: a reader for status and metrics, and a connection
 * for what it sends. No lease: each run takes its locations in turn with the other workers
 * (sync/location-turns.ts). */
import type { PostgresTarget } from "../config/config.js";
import { describePostgresUrl } from "../config/config.js";
import { AlertStore } from "../db/deliveries/alerts.js";
import { DeliveryStore } from "../db/deliveries/deliveries.js";
import { lending, openPool, type PgPool } from "../db/pg/connect.js";
import { postgresError } from "../db/pg/errors.js";
import { openPostgres } from "../db/pg/open.js";
import { openPgReader, pgSession } from "../db/pg/reader.js";
import type { Reader } from "../db/reads/reader.js";
import { collectStatusPage } from "../read-models/status-page.js";
import { renderStatusPage } from "../ui/status-page/page.js";
import type { DaemonStorage, PageRequest } from "./storage.js";

export class PostgresDaemonStorage implements DaemonStorage {
  readonly lost = false;
  readonly name: string;

  private readonly stores: { deliveries: DeliveryStore; alerts: AlertStore };

  private constructor(
    target: PostgresTarget,
    private readonly reader: Reader,
    private readonly writer: PgPool,
  ) {
    this.name = `${describePostgresUrl(target.url)} (schema ${target.schema})`;
    const session = pgSession(lending(writer, target, (e) => postgresError(e, target, "write")));
    this.stores = { deliveries: new DeliveryStore(session), alerts: new AlertStore(session) };
  }

  /** Migrates the schema (several daemons starting at once take turns), then opens a reader. */
  static async open(target: PostgresTarget): Promise<PostgresDaemonStorage> {
    const { pool } = await openPostgres(target, 1);
    await pool.end();
    return new PostgresDaemonStorage(target, await openPgReader(target), openPool(target, 1));
  }

  beforeRun() {
    return {};
  }
  afterRun(): void {}
  readable() {
    return this.reader;
  }
  messages() {
    return this.stores;
  }
  async renderStatusPage(request: PageRequest): Promise<string> {
    const page = await collectStatusPage(this.reader, request);
    return renderStatusPage(page, { refreshSeconds: request.refreshSeconds });
  }
  idle(): void {}
  async close(): Promise<void> {
    await this.writer.end();
    await this.reader.close();
  }
}
