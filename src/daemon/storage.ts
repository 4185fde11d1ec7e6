/**
 * What the daemon holds of its database between runs, for either destination: SQLite's connection
 * with its writer lease and WAL upkeep (sqlite-storage.ts), or PostgreSQL's reader, where
 * per-location locks replace the lease so that several daemons share one database.
 */

import type { AlertStore } from "../db/deliveries/alerts.js";
import type { DeliveryStore } from "../db/deliveries/deliveries.js";
import type { Reader } from "../db/reads/reader.js";
import type { Db } from "../db/sqlite/open.js";

/** What the status page is rendered for. */
export interface PageRequest {
  schedule: string;
  now: Date;
  refreshSeconds: number;
}

export interface DaemonStorage {
  /** For messages: the file, or the server and schema. */
  readonly name: string;
  /** Before a run: the connection the run writes through (SQLite), or none (PostgreSQL: the run
   * connects itself). */
  beforeRun(): { db?: Db };
  /** After a run: a failed one leaves a connection that is opened afresh. */
  afterRun(failed: boolean): void;
  /** What status and the metrics read. */
  readable(): Reader;
  /** Where the daemon records what it sends (notifier.ts): between runs, never during one. */
  messages(): { deliveries: DeliveryStore; alerts: AlertStore };
  /** The status page, read without holding up the runs' writes: SQLite renders it in a worker
   * thread through a read-only connection of its own (status-page-thread.ts); PostgreSQL through
   * its reader, whose queries wait off the thread. */
  renderStatusPage(request: PageRequest): Promise<string>;
  /** While idle: upkeep (SQLite truncates its WAL). */
  idle(): void;
  /** Whether another process took the database over (SQLite's lease); the daemon then exits 1. */
  readonly lost: boolean;
  close(): Promise<void>;
}
