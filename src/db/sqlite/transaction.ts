/**
 * Write transactions that take the write lock at BEGIN (BEGIN IMMEDIATE). A deferred
 * transaction starts as a read and upgrades at its first write; if another connection (the
 * lease heartbeat, a second process) committed in between, SQLite refuses the upgrade with
 * SQLITE_BUSY_SNAPSHOT at once, without waiting. Taking the lock first makes it wait its turn
 * (busy_timeout) instead. Nested inside another transaction, it runs as a savepoint.
 */
import type Database from "better-sqlite3";

export function writeTransaction<A extends unknown[], R>(
  sqlite: Database.Database,
  work: (...args: A) => R,
): (...args: A) => R {
  const transaction = sqlite.transaction(work);
  return (...args: A) => transaction.immediate(...args);
}
