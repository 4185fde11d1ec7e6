/** Small pieces of terminal text that the displays share. */

export const number = new Intl.NumberFormat("en-US");

/** The time between two ISO timestamps, in seconds with one decimal: "12.3 s". */
export function secondsBetween(from: string, to: string): string {
  return `${((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1)} s`;
}
