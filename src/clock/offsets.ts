/**
 * UTC offsets in minutes, read from a timestamp and written as text: the one place that turns an
 * offset into "+01:00" or "UTC+01:00".
 */

/** The UTC offset a timestamp carries ("…+01:00" → 60, "…Z" → 0), in minutes; undefined when it
 * carries none. */
export function utcOffsetOf(timestamp: string): number | undefined {
  // Read char by char, not by a regular expression: a sync reads three per order.
  const end = timestamp.length;
  if (timestamp.charCodeAt(end - 1) === Z) return 0;
  const sign = timestamp.charCodeAt(end - 6);
  if ((sign !== PLUS && sign !== MINUS) || timestamp.charCodeAt(end - 3) !== COLON)
    return undefined;
  const hours = twoDigits(timestamp, end - 5);
  const minutes = twoDigits(timestamp, end - 2);
  if (hours < 0 || minutes < 0) return undefined;
  const offset = hours * 60 + minutes;
  return sign === MINUS ? -offset : offset;
}

const [Z, PLUS, MINUS, COLON, ZERO] = ["Z", "+", "-", ":", "0"].map((c) => c.charCodeAt(0)) as [
  number,
  number,
  number,
  number,
  number,
];

/** The number two decimal digits at `at` write, or -1 when they are not two digits. */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - ZERO;
  const ones = text.charCodeAt(at + 1) - ZERO;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1;
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
