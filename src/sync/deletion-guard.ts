/**
 * When a complete read of a day no longer lists records that are stored, they were voided or
 * removed upstream, and are marked deleted. When it lists far fewer than are stored, the API is
 * more likely broken (an empty answer, a filter gone wrong) than the restaurant's history
 * rewritten: nothing is marked, the window is suspicious, and a person decides
 * (`sync --accept-deletions`). Pure: it sees counts only.
 */

/** Fewer vanished records than this are always accepted: a few voided orders are routine. */
export const SUSPICIOUS_MIN_RECORDS = 5;
/** A read that drops more than this share of a day's stored records is suspicious. */
export const SUSPICIOUS_SHARE = 0.25;

export interface Disappearance {
  /** Live records stored for the day before the read. */
  stored: number;
  /** Of those, the ones the complete read did not list. */
  unlisted: number;
  /** Records the read set aside without an id: any of them may be one of the unlisted. */
  unidentified?: number;
}

/** `deferred`: nothing can be told apart this time; a later read decides. */
export type DisappearanceVerdict = "none" | "delete" | "suspicious" | "deferred";

export function judgeDisappearance(
  { stored, unlisted, unidentified = 0 }: Disappearance,
  acceptDeletions: boolean,
): DisappearanceVerdict {
  if (unlisted === 0) return "none";
  if (acceptDeletions) return "delete";
  if (unidentified > 0) return "deferred";
  // An empty answer for a day that had records is how a broken API looks, however small the day.
  const everything = unlisted === stored;
  const tooMany = unlisted >= SUSPICIOUS_MIN_RECORDS && unlisted > stored * SUSPICIOUS_SHARE;
  return everything || tooMany ? "suspicious" : "delete";
}

export function describeSuspicious(
  stream: string,
  day: string,
  { stored, unlisted }: Disappearance,
): string {
  return (
    `the API no longer lists ${unlisted} of the ${stored} ${stream} stored for ${day}: none marked ` +
    `deleted; if that is real, run pos-sync sync --since ${day} --until ${day} --accept-deletions`
  );
}
