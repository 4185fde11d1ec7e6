/**
 * How often a cron schedule runs: the longest wait between its next runs, so that a schedule that
 * pauses (weekdays only, business hours) is not called late over its pause.
 */
import cron from "node-cron";

/** Runs looked at: enough to cross a weekend of an hourly weekday schedule's pauses. */
const RUNS_SAMPLED = 64;

/** The longest time between two of the schedule's next runs, in milliseconds; null for an
 * expression node-cron does not accept, or one that runs once or never. */
export function scheduleIntervalMs(schedule: string): number | null {
  if (!cron.validate(schedule)) return null;
  const task = cron.createTask(schedule, () => undefined);
  try {
    const runs = task.getNextRuns(RUNS_SAMPLED);
    let longest: number | null = null;
    for (let i = 1; i < runs.length; i++) {
      const gap = (runs[i] as Date).getTime() - (runs[i - 1] as Date).getTime();
      if (longest === null || gap > longest) longest = gap;
    }
    return longest;
  } finally {
    task.destroy();
  }
}
