/**
 * Runs on a cron schedule and once at start, never two at once: a tick that finds a run in
 * progress is skipped and logged. After the machine slept, the ticks it missed make one
 * catch-up run, not a burst. A failed run is simply retried by the next tick.
 *
 * Errands (the notifier's minute) share the lane: one starts only while nothing does, and a tick
 * that finds one running starts its run once it ends. So the database's one connection (SQLite)
 * never serves an errand and a run at once.
 */
import cron, { type ScheduledTask } from "node-cron";
import type { Logger } from "../log.js";

export type TickReason = "start" | "schedule" | "catch-up";

export class Scheduler {
  private task: ScheduledTask | undefined;
  private current: Promise<void> | undefined;
  private runInProgress = false;
  private stopping = false;
  private skipped = 0;

  constructor(
    private readonly schedule: string,
    private readonly run: (reason: TickReason) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const adapter = {
      info: (message: string) => this.logger.debug(message),
      warn: (message: string) => this.logger.debug(message),
      error: (message: string | Error) => this.logger.error({ err: message }, "scheduler error"),
      debug: (message: string | Error) =>
        this.logger.debug({ detail: String(message) }, "scheduler"),
    };
    this.task = cron.schedule(this.schedule, () => this.tick("schedule"), {
      name: "pos-sync",
      logger: adapter,
    });
    // Missed ticks arrive together after a sleep: the first starts a run, the others find it running.
    this.task.on("execution:missed", () => this.tick("catch-up"));
    this.tick("start");
  }

  /** Ticks skipped because a run was in progress. */
  get skippedTicks(): number {
    return this.skipped;
  }

  tick(reason: TickReason): void {
    if (this.stopping) return;
    if (this.runInProgress) {
      this.skipped++;
      this.logger[reason === "catch-up" ? "debug" : "info"](
        { reason },
        "tick skipped: a run is still in progress",
      );
      return;
    }
    this.runInProgress = true;
    const errand = this.current;
    this.occupy(errand ? errand.then(() => this.run(reason)) : this.run(reason), () => {
      this.runInProgress = false;
    });
  }

  /** Does `work` now unless a run or another errand is in progress (it is then skipped). */
  errand(work: () => Promise<void>): void {
    if (this.stopping || this.current) return;
    this.occupy(work(), () => {});
  }

  private occupy(work: Promise<void>, done: () => void): void {
    const tracked: Promise<void> = work
      .catch((error: unknown) => this.logger.error({ err: error }, "scheduler error"))
      .finally(() => {
        done();
        if (this.current === tracked) this.current = undefined;
      });
    this.current = tracked;
  }

  /** No new ticks; resolves when the run in progress (told to stop by its own signal) ends. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.task?.destroy();
    await this.current;
  }
}
