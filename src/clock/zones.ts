/**
 * Time zones by IANA name (Europe/Paris), as this runtime's Intl knows them: whether a name is
 * one, and a zone's offset from UTC at an instant. The only code that asks Intl about zones.
 */
import { MS_PER_MINUTE } from "./units.js";

/**
 * A time zone's IANA name as it will be stored, or undefined when this runtime does not know it:
 * spelt as the runtime spells it when only the case differs ("europe/paris" → "Europe/Paris"),
 * as given otherwise, since runtimes disagree on which of two aliases is canonical
 * (Asia/Kolkata and Asia/Calcutta) and the stored name must not change with the runtime.
 */
export function canonicalTimeZone(name: string): string | undefined {
  const given = name.trim();
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: given }).resolvedOptions()
      .timeZone;
    return resolved.toLowerCase() === given.toLowerCase() ? resolved : given;
  } catch {
    return undefined;
  }
}

/**
 * A zone's offset from UTC at an instant, in minutes: the wall clock Intl shows then, less the
 * instant. `timeZone` must be one the runtime knows (canonicalTimeZone). Each call
 * formats a date (a few microseconds): LocalClock remembers what it read.
 */
export function zoneOffsetReader(timeZone: string): (epochMs: number) => number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  });
  return (epochMs) => {
    // The parts stop at the minute: the instant is taken at its minute's start, so that its
    // seconds do not count against the wall clock.
    const minute = Math.floor(epochMs / MS_PER_MINUTE) * MS_PER_MINUTE;
    const field: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
    for (const part of parts.formatToParts(minute)) field[part.type] = Number(part.value);
    const wall = Date.UTC(
      field.year ?? 1970,
      (field.month ?? 1) - 1,
      field.day ?? 1,
      field.hour ?? 0,
      field.minute ?? 0,
    );
    return Math.round((wall - minute) / MS_PER_MINUTE);
  };
}
