/**
 * When a stored day agrees with the API: the rule a window's completeness check, the audit and
 * `verify` all apply, stated once. A day agrees when the records it accounts for (stored live,
 * and set aside as rejected, less the orders kept on purpose, which no list counts:
 * kept-on-purpose.ts) are as many as the API counts, and, where the listing was compared record
 * by record, none is missing, changed or extra.
 */

/** Where a day's listing and its stored records part. */
export interface ContentDifference {
  /** Listed, and not stored live. */
  missing: number;
  /** Stored with other content than listed: another content hash (a correction that left
   * updatedAt as it was), or other rows (a hand edit). */
  changed: number;
  /** Stored live, and no longer listed. */
  extra: number;
}

/** What a check of a day found. */
export interface DayAccount {
  /** The API's count of the day (its listing's totalCount); null when it was not read. */
  apiCount: number | null;
  /** Records stored live for the day, and the distinct ones set aside. */
  stored: number;
  rejected: number;
  /** Of the live ones, orders kept on purpose; none where the check did not ask. */
  kept?: number;
  /** The listing against the stored records, where they were compared. */
  content?: ContentDifference;
}

/** The records a day accounts for against the API's count. */
export function accountedFor(day: DayAccount): number {
  return day.stored + day.rejected - (day.kept ?? 0);
}

export function contentAgrees(content: ContentDifference): boolean {
  return content.missing + content.changed + content.extra === 0;
}

/** Whether the day as stored is the day the API lists. */
export function dayAgrees(day: DayAccount): boolean {
  return (
    day.apiCount === accountedFor(day) && (day.content === undefined || contentAgrees(day.content))
  );
}
