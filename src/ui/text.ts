/** Small pieces of terminal text that the displays share. */

export const number = new Intl.NumberFormat("en-US");

/** "2026-11-24 19:40 UTC" from an ISO instant in UTC. */
export function utcMinute(instant: string): string {
  return `${instant.slice(0, 16).replace("T", " ")} UTC`;
}

/** The time between two ISO timestamps, in seconds with one decimal: "12.3 s". */
export function secondsBetween(from: string, to: string): string {
  return secondsText(Date.parse(to) - Date.parse(from));
}

/** A duration in seconds with a tenth: "3.6 s". */
export function secondsText(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
