/** Days in words, in English, as the morning report writes them: "Saturday 28 November 2026". */

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** A calendar day's weekday: "Saturday"; the text itself when it is no day. */
export function weekdayName(day: string): string {
  return WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()] ?? day;
}

/** "Saturday 28 November 2026". */
export function longDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  const month = date.toLocaleString("en-GB", { month: "long", timeZone: "UTC" });
  return `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${month} ${date.getUTCFullYear()}`;
}
