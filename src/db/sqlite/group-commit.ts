/**
 * Group commit: the sync's writes (a page, a window's record, a run's row: each one transaction
 * of its own, destination.ts) share one SQLite transaction for up to `windowMs`, then commit
 * together. A commit writes every page it changed to the WAL, and a page of orders changes
 * hundreds of index pages keyed by random ids: committing a few hundred milliseconds of work at
 * once writes each of those pages once instead of once per page of orders (measured: commits
 * took half of the writer's time, one per request).
 *
 * What a crash can lose is the group in hand: its pages and the window records that vouch for
 * them go together, so a resumed run finds those windows unrecorded and reads them again, as
 * it would have found them before. A write that fails takes the group with it, whether SQLite
 * rolled it back itself (a full disk, an I/O error) or the write failed otherwise: `onLost` hears
 * of it with the error, since the writes of every caller that had some in the group are gone, not
 * only those of the write that failed (the destination then stops the run). The error is thrown
 * to that write's caller; a commit that fails on its timer is kept and thrown to the next write
 * or flush.
 *
 * Writes are not savepoints: a savepoint journals the first version of every database page it
 * changes, and a page of orders changes hundreds (a backfill took 5 % more CPU, a chain's week
 * 7 % longer, docs/benchmarks.md), to spare the group's other writes in a failure that is rare.
 */
import type Database from "better-sqlite3";

export class GroupCommit {
  private openedAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;
  private readonly begin: Database.Statement;
  private readonly commitStatement: Database.Statement;
  private readonly rollback: Database.Statement;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly windowMs: number,
    private readonly onLost: (error: unknown) => void,
  ) {
    this.begin = sqlite.prepare("BEGIN IMMEDIATE");
    this.commitStatement = sqlite.prepare("COMMIT");
    this.rollback = sqlite.prepare("ROLLBACK");
  }

  /** Runs a write inside the group, opening one when none is open. */
  write<T>(work: () => T): T {
    this.throwFailure();
    if (this.openedAt === undefined) this.open();
    let result: T;
    try {
      result = work();
    } catch (error) {
      // Whatever the write did is in the group: the group goes.
      this.lost(error);
      throw error;
    }
    const remaining = this.remainingMs();
    if (remaining <= 0) this.commit();
    else this.scheduleCommit(remaining);
    return result;
  }

  /** Commits what the group holds now (the end of a run, a close). */
  flush(): void {
    this.throwFailure();
    this.commit();
  }

  /** How long the open group may still wait before it commits. */
  private remainingMs(): number {
    return this.windowMs - (performance.now() - (this.openedAt ?? 0));
  }

  private open(): void {
    this.begin.run();
    this.openedAt = performance.now();
  }

  private commit(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.openedAt === undefined) return;
    this.openedAt = undefined;
    if (!this.sqlite.inTransaction) return;
    try {
      this.commitStatement.run();
    } catch (error) {
      this.lost(error);
      throw error;
    }
  }

  private scheduleCommit(afterMs: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      try {
        this.commit();
      } catch (error) {
        this.failure = error;
      }
    }, afterMs);
    // An idle group must not keep a process alive: close() and the end of a run flush it.
    this.timer.unref();
  }

  /** Rolls the group back (unless SQLite already has) and says so. */
  private lost(error: unknown): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.openedAt = undefined;
    if (this.sqlite.inTransaction) this.rollback.run();
    this.onLost(error);
  }

  private throwFailure(): void {
    if (this.failure === undefined) return;
    const failure = this.failure;
    this.failure = undefined;
    throw failure;
  }
}
