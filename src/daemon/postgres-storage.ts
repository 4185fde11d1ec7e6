/** The daemon's hold on a PostgreSQL database: a reader for status and metrics. No lease: each
 * run takes its locations in turn with the other workers (sync/location-turns.ts). */
import type { PostgresTarget } from "../config/config.js";
import { describePostgresUrl } from "../config/config.js";
import { openPostgres } from "../db/pg/open.js";
import { PgReader } from "../db/pg/reader.js";
import { collectStatusPage } from "../read-models/status-page.js";
import { renderStatusPage } from "../ui/status-page/page.js";
import type { DaemonStorage, PageRequest } from "./storage.js";

export class PostgresDaemonStorage implements DaemonStorage {
  readonly lost = false;
  readonly name: string;

  private constructor(
    target: PostgresTarget,
    private readonly reader: PgReader,
  ) {
    this.name = `${describePostgresUrl(target.url)} (schema ${target.schema})`;
  }

  /** Migrates the schema (several daemons starting at once take turns), then opens a reader. */
  static async open(target: PostgresTarget): Promise<PostgresDaemonStorage> {
    const { pool } = await openPostgres(target, 1);
    await pool.end();
    return new PostgresDaemonStorage(target, await PgReader.open(target));
  }

  beforeRun() {
    return {};
  }
  afterRun(): void {}
  readable() {
    return this.reader;
  }
  async renderStatusPage(request: PageRequest): Promise<string> {
    const page = await collectStatusPage(this.reader, request);
    return renderStatusPage(page, { refreshSeconds: request.refreshSeconds });
  }
  idle(): void {}
  close(): Promise<void> {
    return this.reader.close();
  }
}
