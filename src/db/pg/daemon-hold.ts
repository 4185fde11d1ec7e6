/** The daemon's hold on a PostgreSQL database: a reader for status, the metrics and the status
 * page, and a connection for what it sends. No lease: each run takes its locations in turn with
 * the other workers (sync/location-turns.ts). */
import type { PostgresTarget } from "../../config/config.js";
import type { DaemonHold } from "../database.js";
import { AlertStore } from "../deliveries/alerts.js";
import { DeliveryStore } from "../deliveries/deliveries.js";
import type { Reader } from "../reads/reader.js";
import { lending, openPool, type PgPool } from "./connect.js";
import { postgresError } from "./errors.js";
import { openPostgres } from "./open.js";
import { openPgReader, pgSession, pgWhere } from "./reader.js";

export class PgDaemonHold implements DaemonHold {
  readonly lost = false;
  readonly name: string;

  private readonly stores: { deliveries: DeliveryStore; alerts: AlertStore };

  private constructor(
    target: PostgresTarget,
    private readonly reader: Reader,
    private readonly writer: PgPool,
  ) {
    this.name = pgWhere(target);
    const session = pgSession(lending(writer, target, (e) => postgresError(e, target, "write")));
    this.stores = { deliveries: new DeliveryStore(session), alerts: new AlertStore(session) };
  }

  /** Migrates the schema (several daemons starting at once take turns), then opens a reader. */
  static async open(target: PostgresTarget): Promise<PgDaemonHold> {
    const { pool } = await openPostgres(target, 1);
    await pool.end();
    return new PgDaemonHold(target, await openPgReader(target), openPool(target, 1));
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
  idle(): void {}
  async close(): Promise<void> {
    await this.writer.end();
    await this.reader.close();
  }
}
