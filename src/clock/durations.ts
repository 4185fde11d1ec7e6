/**
 * Durations as text: the one formatter every display, message and log line uses. Its styles
 * differ on purpose, each where it is read:
 *
 *   tenths   "3.6 s", "125.0 s"          how long a run or a probe took, always to the tenth
 *   seconds  "0.3 s", "15 s", "120 s"    a wait or a deadline, at most one decimal
 *   span     "840 ms", "12.4 s", "3 min 20 s", "2 h 5 min", "3 days"
 *                                        an age or a run's length on the status page
 *   minutes  "45 min", "2 h", "2 h 5 min"
 *                                        how long an alert lasted, to the minute
 *   left     "42 s", "3 min 05 s", "1 h 02 min"
 *                                        time left on a progress line: fixed width once it
 *                                        passes a minute, so that the line does not jitter
 */
import { MS_PER_MINUTE } from "./units.js";

export type DurationStyle = "tenths" | "seconds" | "span" | "minutes" | "left";

const MS_PER_SECOND = 1_000;

const twoDigits = (value: number) => String(value).padStart(2, "0");

/** "3 min 20 s", or "3 min" when the smaller unit is 0. */
const twoUnits = (big: number, bigName: string, small: number, smallName: string) =>
  small === 0 ? `${big} ${bigName}` : `${big} ${bigName} ${small} ${smallName}`;

/** A duration in milliseconds as text, in one of the styles above. */
export function durationText(ms: number, style: DurationStyle): string {
  switch (style) {
    case "tenths":
      return `${(ms / MS_PER_SECOND).toFixed(1)} s`;
    case "seconds":
      return `${Math.round(ms / 100) / 10} s`;
    case "span":
      return spanText(ms);
    case "minutes":
      return minutesText(ms);
    case "left":
      return leftText(ms);
  }
}

/** The duration between two ISO timestamps, as text. */
export function durationBetween(from: string, to: string, style: DurationStyle): string {
  return durationText(Date.parse(to) - Date.parse(from), style);
}

function spanText(ms: number): string {
  // A moment a clock ahead of this one stamped reads as now, not as a negative span.
  if (ms < MS_PER_SECOND) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = ms / MS_PER_SECOND;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return twoUnits(minutes, "min", Math.floor(seconds % 60), "s");
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return twoUnits(hours, "h", minutes % 60, "min");
  return `${Math.floor(hours / 24)} days`;
}

function minutesText(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / MS_PER_MINUTE));
  if (minutes < 60) return `${minutes} min`;
  return twoUnits(Math.floor(minutes / 60), "h", minutes % 60, "min");
}

function leftText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / MS_PER_SECOND));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${twoDigits(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${twoDigits(minutes % 60)} min`;
}
