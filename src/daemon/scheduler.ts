/**
 * Runs on a cron schedule and once at start, never two at once: a tick that finds a run in
 * progress is skipped and logged. After the machine slept, the ticks it missed make one
 * catch-up run, not a burst. A failed run is simply retried by the next tick.
 */
import cron, { type ScheduledTask } from "node-cron";
import type { Logger } from "../log.js";

export type TickReason = "start" | "schedule" | "catch-up";

export class Scheduler {
  private task: ScheduledTask | undefined;
  private current: Promise<void> | undefined;
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
    if (this.current) {
      this.skipped++;
      this.logger[reason === "catch-up" ? "debug" : "info"](
        { reason },
        "tick skipped: a run is still in progress",
      );
      return;
    }
    this.current = this.run(reason).finally(() => {
      this.current = undefined;
    });
  }

  /** No new ticks; resolves when the run in progress (told to stop by its own signal) ends. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.task?.destroy();
    await this.current;
  }
}
