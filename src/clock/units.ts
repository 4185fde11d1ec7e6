/** The clock's units, and the one shift from an instant to what a clock a fixed offset from UTC
 * shows at it. */

export const MS_PER_MINUTE = 60_000;
export const MS_PER_DAY = 86_400_000;

/** What a clock `offsetMinutes` from UTC shows at an instant, as ISO text without an offset
 * ("2026-11-24T15:18:02.120Z" read as that clock's day and time). */
export function onClock(epochMs: number, offsetMinutes: number): string {
  return new Date(epochMs + offsetMinutes * MS_PER_MINUTE).toISOString();
}
