/**
 * One writer per database file. Before writing, a process takes two things:
 *
 * - an exclusive lock on a side file (`<database>.lock`), held by an SQLite connection for the
 *   writer's whole life. It is a POSIX lock, as SQLite's own: the kernel drops it the moment the
 *   process ends, however it ends (SIGKILL, a crash, a zombie nobody reaps), so a writer on this
 *   host can never be locked out by a dead one;
 * - the lease, one row in `writer_lease`, which says who writes (shown to a writer it refuses)
 *   and which it refreshes while it works. Hosts that share a volume do not share locks
 *   reliably: for a holder on another host the row's time-to-live decides.
 *
 * Readers never look at either, so BI tools are never blocked.
 */
import { randomUUID } from "node:crypto";
import { realpathSync } from "node:fs";
import { hostname } from "node:os";
import Database from "better-sqlite3";
import { utcMinute } from "../../clock/local-moment.js";
import { EXIT, PosSyncError } from "../../errors.js";
import { isProcessAlive } from "../../process-liveness.js";
import { databaseError } from "./errors.js";
import type { Db } from "./open.js";

export const LEASE_TTL_MS = 60_000;
export const LEASE_HEARTBEAT_MS = 15_000;

export class WriterBusyError extends PosSyncError {
  readonly exitCode = EXIT.incomplete;
  readonly retryable = true;
}

interface LeaseRow {
  holder: string;
  pid: number;
  hostname: string;
  command: string;
  acquired_at: string;
  heartbeat_at: string;
}

/** The path of the side file whose lock marks the writer of a database: beside the file itself,
 * so that two paths to one database (a symlink, a relative path) share one lock. */
export function lockPathOf(dbPath: string): string {
  return `${realpathSync(dbPath)}.lock`;
}

/**
 * Whether a lease row no longer binds, once this process holds the side file's lock. On this
 * host the lock says it all: a holder that still ran would hold it. A holder on another host is
 * trusted until its heartbeat is older than the time-to-live.
 */
function isStale(row: LeaseRow, now: number, ttlMs: number): boolean {
  return row.hostname === hostname() || now - Date.parse(row.heartbeat_at) > ttlMs;
}

/** Who holds the database, for the message that refuses a second writer. */
function describeHolder(row: LeaseRow | undefined): string {
  if (!row) return "another process on this host holds its lock";
  const state = row.hostname === hostname() && !isProcessAlive(row.pid) ? ", exiting" : "";
  return `${row.command}, pid ${row.pid} on ${row.hostname}${state}, since ${utcMinute(row.acquired_at)}`;
}

/** The exclusive lock on the side file, or undefined when another connection holds it. */
function takeFileLock(dbPath: string): Database.Database | undefined {
  const lock = new Database(lockPathOf(dbPath), { timeout: 0 });
  try {
    // An exclusive transaction never written to: it holds the file's lock until rolled back or
    // closed. Its journal stays in memory, so that no other file appears beside the database.
    lock.pragma("journal_mode = MEMORY");
    lock.exec("BEGIN EXCLUSIVE");
    return lock;
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code?.startsWith("SQLITE_BUSY")) return undefined;
    throw error;
  }
}

function releaseFileLock(lock: Database.Database | undefined): void {
  if (!lock?.open) return;
  try {
    lock.exec("ROLLBACK");
  } finally {
    lock.close();
  }
}

export interface LeaseOptions {
  /** What takes the lease, shown to the writer it refuses. */
  command: string;
  ttlMs?: number;
  heartbeatMs?: number;
  /** Called when the lease was taken over after all (this process stalled past the TTL). */
  onLost?: () => void;
}

export class WriterLease {
  private timer: NodeJS.Timeout | undefined;
  private released = false;

  private constructor(
    private db: Db,
    private readonly fileLock: Database.Database | undefined,
    private holder: string,
    private readonly options: LeaseOptions,
  ) {
    this.startHeartbeat();
  }

  private startHeartbeat(): void {
    const refresh = this.db.sqlite.prepare(
      "UPDATE writer_lease SET heartbeat_at = ? WHERE id = 1 AND holder = ?",
    );
    const holder = this.holder;
    const timer = setInterval(() => {
      let changes: number;
      try {
        changes = refresh.run(new Date().toISOString(), holder).changes;
      } catch {
        // Busy or failing for a moment: the next beat tries again, well within the TTL.
        return;
      }
      if (changes === 0) {
        clearInterval(timer);
        this.options.onLost?.();
      }
    }, this.options.heartbeatMs ?? LEASE_HEARTBEAT_MS);
    timer.unref();
    this.timer = timer;
  }

  /** Moves the lease to a new connection to the same file (the old one is about to close); the
   * side file's lock is kept throughout, so no other writer can slip in. */
  moveTo(db: Db): void {
    if (this.released) return;
    clearInterval(this.timer);
    this.db = db;
    this.holder = WriterLease.takeRow(db, this.options);
    this.startHeartbeat();
  }

  /** Takes the lock and the lease, or throws WriterBusyError naming the process that holds them. */
  static acquire(db: Db, options: LeaseOptions): WriterLease {
    const fileLock = WriterLease.lockFile(db);
    try {
      return new WriterLease(db, fileLock, WriterLease.takeRow(db, options), options);
    } catch (error) {
      releaseFileLock(fileLock);
      throw error;
    }
  }

  /** The side file's lock; throws WriterBusyError when another process holds it. An in-memory
   * database has no side file (and no second process). */
  private static lockFile(db: Db): Database.Database | undefined {
    if (db.path === ":memory:") return undefined;
    let lock: Database.Database | undefined;
    try {
      lock = takeFileLock(db.path);
    } catch (error) {
      // The first write of a run: a read-only directory or a full disk shows here.
      throw databaseError(error, db.path, "write to the database");
    }
    if (!lock) throw WriterLease.busy(db, WriterLease.currentRow(db));
    return lock;
  }

  private static currentRow(db: Db): LeaseRow | undefined {
    try {
      return db.sqlite.prepare("SELECT * FROM writer_lease WHERE id = 1").get() as
        | LeaseRow
        | undefined;
    } catch {
      return undefined;
    }
  }

  private static busy(db: Db, row: LeaseRow | undefined): WriterBusyError {
    return new WriterBusyError(
      `another pos-sync is writing ${db.path} (${describeHolder(row)}): stop it, or let it finish, and try again`,
    );
  }

  /** Writes this process into the lease row, unless a holder on another host still has it (this
   * process holds the side file's lock already). */
  private static takeRow(db: Db, options: LeaseOptions): string {
    const ttlMs = options.ttlMs ?? LEASE_TTL_MS;
    const holder = randomUUID();
    const take = db.sqlite.transaction(() => {
      const current = db.sqlite.prepare("SELECT * FROM writer_lease WHERE id = 1").get() as
        | LeaseRow
        | undefined;
      if (current && !isStale(current, Date.now(), ttlMs)) return current;
      const now = new Date().toISOString();
      db.sqlite
        .prepare(
          `INSERT INTO writer_lease (id, holder, pid, hostname, command, acquired_at, heartbeat_at)
           VALUES (1, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, pid = excluded.pid, hostname = excluded.hostname,
             command = excluded.command, acquired_at = excluded.acquired_at, heartbeat_at = excluded.heartbeat_at`,
        )
        .run(holder, process.pid, hostname(), options.command, now, now);
      return undefined;
    });
    let busy: LeaseRow | undefined;
    try {
      busy = take.immediate();
    } catch (error) {
      throw databaseError(error, db.path, "write to the database");
    }
    if (busy) throw WriterLease.busy(db, busy);
    return holder;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    clearInterval(this.timer);
    try {
      this.db.sqlite
        .prepare("DELETE FROM writer_lease WHERE id = 1 AND holder = ?")
        .run(this.holder);
    } catch {
      // A closed or failing database: the lock below is what counts on this host.
    }
    releaseFileLock(this.fileLock);
  }
}
