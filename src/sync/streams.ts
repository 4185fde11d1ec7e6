/** The streams of a location, in the order a run syncs them. */

export const STREAMS = ["location", "catalog", "reports", "orders"] as const;
export type Stream = (typeof STREAMS)[number];

/** Streams read day by day with since = until = day. */
export const DAY_STREAMS = ["reports", "orders"] as const;
export type DayStream = (typeof DAY_STREAMS)[number];

export function isStream(text: string): text is Stream {
  return (STREAMS as readonly string[]).includes(text);
}
