/**
 * When a cron schedule runs, between two moments: what tells whether the daemon's last success
 * is late. Counted on the schedule's own calendar (the process's local time, as node-cron runs
 * it), so that a schedule that pauses (weekdays only, business hours) is not called late over
 * its pause.
 */
import cron from "node-cron";

/** Days looked at, at most: a schedule sparser than a year is never called late. */
const MAX_DAYS = 366;

const ascending = (values: number[]) => [...values].sort((a, b) => a - b);

/**
 * The schedule's times after `since` and at or before `until`, the first `limit` of them;
 * empty for an expression node-cron does not accept. node-cron decides which days match (its
 * day-of-month, month and weekday rules, the L and # forms included): one probe a day at the
 * day's first scheduled time. Within a matching day every combination of the hour, minute and
 * second lists runs.
 */
export function scheduledTimesBetween(
  schedule: string,
  since: Date,
  until: Date,
  limit: number,
): Date[] {
  if (!cron.validate(schedule)) return [];
  const fields = cron.parse(schedule);
  const [hours, minutes, seconds] = [fields.hour, fields.minute, fields.second].map(ascending) as [
    number[],
    number[],
    number[],
  ];
  const task = cron.createTask(schedule, () => undefined);
  try {
    const times: Date[] = [];
    const [year, month, date] = [since.getFullYear(), since.getMonth(), since.getDate()];
    for (let day = 0; day <= MAX_DAYS && times.length < limit; day++) {
      const probe = new Date(year, month, date + day, hours[0], minutes[0], seconds[0]);
      if (probe > until) break;
      if (!task.match(probe)) continue;
      for (const hour of hours)
        for (const minute of minutes)
          for (const second of seconds) {
            const at = new Date(year, month, date + day, hour, minute, second);
            if (at <= since) continue;
            if (at > until || times.length >= limit) return times;
            times.push(at);
          }
    }
    return times;
  } finally {
    task.destroy();
  }
}
