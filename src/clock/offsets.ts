/**
 * UTC offsets in minutes, read from a timestamp and written as text: the one place that turns an
 * offset into "+01:00" or "UTC+01:00".
 */

/** The UTC offset a timestamp carries ("…+01:00" → 60, "…Z" → 0), in minutes; undefined when it
 * carries none. */
export function utcOffsetOf(timestamp: string): number | undefined {
  if (timestamp.endsWith("Z")) return 0;
  const match = /([+-])(\d\d):(\d\d)$/.exec(timestamp);
  if (!match) return undefined;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === "-" ? -minutes : minutes;
}

/**
 * How an offset is written: `suffix` as a timestamp ends ("+01:00", "-05:30", "+00:00"); `clock`
 * as people name a clock ("UTC+01:00", "UTC-05:30", and "UTC" for none).
 */
export type OffsetForm = "suffix" | "clock";

/** An offset in minutes as text (OffsetForm). */
export function offsetText(offsetMinutes: number, form: OffsetForm): string {
  if (form === "clock" && offsetMinutes === 0) return "UTC";
  const sign = offsetMinutes < 0 ? "-" : "+";
  const absolute = Math.abs(offsetMinutes);
  const hours = String(Math.floor(absolute / 60)).padStart(2, "0");
  const minutes = String(absolute % 60).padStart(2, "0");
  return `${form === "clock" ? "UTC" : ""}${sign}${hours}:${minutes}`;
}
