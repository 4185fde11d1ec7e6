/**
 * What the daemon holds of its database between runs, for either destination: SQLite's connection
 * with its writer lease and WAL upkeep (sqlite-storage.ts), or PostgreSQL's reader, where
 * per-location locks replace the lease so that several daemons share one database.
 */

import type { ReadableDestination } from "../db/destination.js";
import type { Db } from "../db/open.js";

export interface PageReader {
  destination: ReadableDestination;
  release(): Promise<void>;
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
  readable(): ReadableDestination;
  /** What the status page reads, apart from the runs' writes: SQLite opens a read-only
   * connection of its own (the writer's holds its group of writes open between pages, and a
   * reader in WAL mode never waits for a writer); PostgreSQL lends its reader. */
  openPageReader(): Promise<PageReader>;
  /** While idle: upkeep (SQLite truncates its WAL). */
  idle(): void;
  /** Whether another process took the database over (SQLite's lease); the daemon then exits 1. */
  readonly lost: boolean;
  close(): Promise<void>;
}
