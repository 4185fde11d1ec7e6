/**
 * The daemon's own connection to the database, open for its whole life: it carries the writer
 * lease's heartbeat, feeds the metrics and truncates the WAL between runs. Each run writes
 * through a connection of its own, in its own thread.
 *
 * SQLite shares one view of the WAL index (`-shm`) among the connections of a process. When the
 * `-wal` or `-shm` files are deleted or replaced while this connection keeps the old ones open
 * (a cleanup script, a restore from backup), every later run in this process reads a WAL that
 * no longer matches (SQLITE_IOERR_SHORT_READ) until the process restarts. So before each run, and
 * after a run that failed, the connection is opened afresh when its files changed.
 */
import { statSync } from "node:fs";
import { type Db, openDatabase } from "./open.js";
import { touchSharedMemory } from "./wal.js";
import type { WriterLease } from "./writer-lease.js";

/** The inode of each file, as this connection sees it ("-" for an absent file). */
function fileIdentity(path: string): string {
  return ["", "-wal", "-shm"]
    .map((suffix) => {
      try {
        return String(statSync(`${path}${suffix}`).ino);
      } catch {
        return "-";
      }
    })
    .join(":");
}

export class DaemonConnection {
  private db: Db | undefined;
  private identity = "";
  private lease: WriterLease | undefined;

  constructor(readonly path: string) {
    this.open();
  }

  /** The connection; one that could not be opened again is tried once more here. */
  get current(): Db {
    return this.db ?? this.open();
  }

  /** The lease follows the connection when it is opened afresh. */
  attach(lease: WriterLease): void {
    this.lease = lease;
  }

  /** True when the database's files are no longer the ones this connection opened. */
  filesChanged(): boolean {
    return fileIdentity(this.path) !== this.identity;
  }

  /**
   * Closes the connection, then opens the database again and moves the lease to it. In that
   * order: SQLite keeps the WAL index of a file that one of this process's connections still
   * holds open, so a connection opened beside the stale one would read the stale index.
   */
  reopen(): void {
    this.dropConnection();
    this.open();
  }

  close(): void {
    const db = this.db;
    this.db = undefined;
    db?.close();
  }

  private open(): Db {
    const fresh = openDatabase(this.path);
    try {
      this.lease?.moveTo(fresh);
      this.identity = this.touch(fresh);
    } catch (error) {
      fresh.close();
      throw error;
    }
    this.db = fresh;
    return fresh;
  }

  private dropConnection(): void {
    try {
      this.close();
    } catch {
      // A connection to files that are gone may fail to close: it is dropped either way.
      this.db = undefined;
    }
  }

  /** A read creates the -shm of a WAL database: its identity is then complete. */
  private touch(db: Db): string {
    touchSharedMemory(db.sqlite);
    return fileIdentity(this.path);
  }
}
