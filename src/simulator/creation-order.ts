import { parseInstant } from "./clock.js";

/** Sorted by creation time, then id; each timestamp parsed once. */
export function sortByCreatedAt<T extends { createdAt: string; id: string }>(
  records: readonly T[],
): T[] {
  return records
    .map((record) => ({ record, at: parseInstant(record.createdAt) }))
    .sort(
      (a, b) => a.at - b.at || (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0),
    )
    .map(({ record }) => record);
}
