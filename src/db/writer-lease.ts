/**
 * One writer per database file. Before writing, a process takes the lease (one row in
 * `writer_lease`) and refreshes it while it works; a second writer refuses while the lease is
 * fresh. A holder that died leaves a lease that goes stale: at once when it ran on this host
 * (its pid is gone), after the time-to-live otherwise (another container sharing the volume).
 * Readers never look at the lease, so BI tools are never blocked.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { PosSyncError } from "../errors.js";
import { databaseError } from "./errors.js";
import type { Db } from "./open.js";

export const LEASE_TTL_MS = 60_000;
export const LEASE_HEARTBEAT_MS = 15_000;

export class WriterBusyError extends PosSyncError {
  readonly exitCode = 1;
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

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/** Leases this process holds: the same pid in the table with another holder id is a previous
 * life of this process (a restarted container often runs as pid 1 again). */
const heldHere = new Set<string>();

function isStale(row: LeaseRow, now: number, ttlMs: number): boolean {
  if (now - Date.parse(row.heartbeat_at) > ttlMs) return true;
  if (row.hostname !== hostname()) return false;
  // On this host a holder's death shows at once.
  return row.pid === process.pid ? !heldHere.has(row.holder) : !processAlive(row.pid);
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
  private readonly timer: NodeJS.Timeout;
  private released = false;

  private constructor(
    private readonly db: Db,
    readonly holder: string,
    heartbeatMs: number,
    onLost: (() => void) | undefined,
  ) {
    const refresh = db.sqlite.prepare(
      "UPDATE writer_lease SET heartbeat_at = ? WHERE id = 1 AND holder = ?",
    );
    this.timer = setInterval(() => {
      let changes: number;
      try {
        changes = refresh.run(new Date().toISOString(), holder).changes;
      } catch {
        // Busy or failing for a moment: the next beat tries again, well within the TTL.
        return;
      }
      if (changes === 0) {
        clearInterval(this.timer);
        onLost?.();
      }
    }, heartbeatMs);
    this.timer.unref();
  }

  /** Takes the lease, or throws WriterBusyError naming the process that holds it. */
  static acquire(db: Db, options: LeaseOptions): WriterLease {
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
      // The first write of a run: a read-only file or a full disk shows here.
      throw databaseError(error, db.path, "write to the database");
    }
    if (busy) {
      throw new WriterBusyError(
        `another pos-sync is writing ${db.path} (${busy.command}, pid ${busy.pid} on ${busy.hostname}, ` +
          `since ${busy.acquired_at.slice(0, 16).replace("T", " ")} UTC): stop it, or let it finish, and try again`,
      );
    }
    heldHere.add(holder);
    return new WriterLease(db, holder, options.heartbeatMs ?? LEASE_HEARTBEAT_MS, options.onLost);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    heldHere.delete(this.holder);
    clearInterval(this.timer);
    try {
      this.db.sqlite
        .prepare("DELETE FROM writer_lease WHERE id = 1 AND holder = ?")
        .run(this.holder);
    } catch {
      // A closed or failing database: the lease goes stale on its own.
    }
  }
}
