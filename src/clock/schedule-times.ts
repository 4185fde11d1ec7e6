/**
 * When a cron schedule runs, between two moments: what tells whether the daemon's last success
 * is late; and the schedule in words, for the status page. Counted on the schedule's own
 * calendar (the process's local time, as node-cron runs it), so that a schedule that pauses
 * (weekdays only, business hours) is not called late over its pause.
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

const WEEKDAYS = [
  "Sundays",
  "Mondays",
  "Tuesdays",
  "Wednesdays",
  "Thursdays",
  "Fridays",
  "Saturdays",
];

/** A field that is one number within bounds, else undefined. */
function single(field: string, max: number): number | undefined {
  if (!/^\d{1,2}$/.test(field)) return undefined;
  const value = Number(field);
  return value <= max ? value : undefined;
}

/** `*\/N` as N (every N units), else undefined. */
function step(field: string): number | undefined {
  const match = /^\*\/(\d{1,2})$/.exec(field);
  return match ? Number(match[1]) : undefined;
}

const twoDigits = (value: number) => String(value).padStart(2, "0");
const every = (count: number, unit: string) =>
  count === 1 ? `every ${unit}` : `every ${count} ${unit}s`;

/** The days of the week in words: "" for every day; undefined for a pattern not put in words. */
function daysInWords(weekday: string): string | undefined {
  if (weekday === "*") return "";
  if (weekday === "1-5") return " on weekdays";
  if (weekday === "0,6" || weekday === "6,0" || weekday === "6,7" || weekday === "6-7")
    return " at weekends";
  const day = single(weekday, 7);
  return day === undefined ? undefined : ` on ${WEEKDAYS[day % 7]}`;
}

/** Minutes and hours in words; named hours are the daemon's own clock (node-cron's). */
function timeInWords(minute: string, hour: string): string | undefined {
  const minuteStep = step(minute);
  if (hour === "*") {
    if (minute === "*") return "every minute";
    if (minuteStep !== undefined) return every(minuteStep, "minute");
    const at = single(minute, 59);
    if (at === undefined) return undefined;
    return at === 0 ? "every hour, on the hour" : `every hour at :${twoDigits(at)}`;
  }
  const at = single(minute, 59);
  if (at === undefined) return undefined;
  const hourStep = step(hour);
  if (hourStep !== undefined)
    return `${every(hourStep, "hour")}${at === 0 ? ", on the hour" : ` at :${twoDigits(at)}`}`;
  const range = /^(\d{1,2})-(\d{1,2})$/.exec(hour);
  if (range)
    return `every hour from ${twoDigits(Number(range[1]))}:${twoDigits(at)} to ${twoDigits(Number(range[2]))}:${twoDigits(at)} server time`;
  const atHour = single(hour, 23);
  return atHour === undefined ? undefined : `at ${twoDigits(atHour)}:${twoDigits(at)} server time`;
}

/**
 * A cron schedule in words, for the common patterns ("every 15 minutes", "at 03:00 server time
 * on weekdays"); undefined for any other, which is then shown as written. Days of the month and
 * months other than every one are left to the cron text.
 */
export function describeSchedule(schedule: string): string | undefined {
  if (!cron.validate(schedule)) return undefined;
  const fields = schedule.trim().split(/\s+/);
  if (fields.length === 6) {
    const [second = "", ...rest] = fields;
    const everyField = rest.every((field) => field === "*");
    if (second === "*" && everyField) return "every second";
    const secondStep = step(second);
    if (secondStep !== undefined && everyField) return every(secondStep, "second");
    if (second !== "0") return undefined;
    fields.shift();
  }
  const [minute = "", hour = "", dayOfMonth, month, weekday = ""] = fields;
  if (dayOfMonth !== "*" || month !== "*") return undefined;
  const time = timeInWords(minute, hour);
  const days = daysInWords(weekday);
  if (time === undefined || days === undefined) return undefined;
  return time.startsWith("at ") && days === "" ? `every day ${time}` : `${time}${days}`;
}
