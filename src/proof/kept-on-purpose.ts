/**
 * Which stored records a day's listing no longer shows are still there upstream: the rule a
 * window's deletions (sync/vanished-records.ts) and a day's proof (day-proof.ts) both apply,
 * stated once. A record of a stream that reports vouch for (orders) may be missing from every
 * list and still exist: one a live stored report lists, and that the API still serves by id, is
 * kept on purpose (neither deleted, nor extra, nor counted against the listing). Any other
 * unlisted record is gone.
 */
import type { PosApiClient } from "../api/client.js";
import type { DayFactReads } from "../db/reads/day-facts.js";
import type { DayStreamDescription } from "../streams/index.js";

export interface UnlistedRecords {
  /** Still there upstream. */
  kept: Set<string>;
  /** Gone upstream. */
  gone: string[];
  /** Requests it took. */
  requests: number;
}

/**
 * Sorts a day's unlisted records into kept and gone. `unanswered`, when given, hears of a record
 * whose request failed, which is then neither (it stays as stored until a later read); without
 * it the failure is thrown.
 */
export async function sortUnlisted(
  reads: Pick<DayFactReads, "ordersListedByLiveReport">,
  client: PosApiClient,
  stream: DayStreamDescription,
  locationId: string,
  unlisted: readonly string[],
  unanswered?: (id: string, error: unknown) => void,
): Promise<UnlistedRecords> {
  const kept = new Set<string>();
  if (!stream.vouchedByReports || unlisted.length === 0)
    return { kept, gone: [...unlisted], requests: 0 };
  const vouched = new Set(await reads.ordersListedByLiveReport(locationId, unlisted));
  const gone = unlisted.filter((id) => !vouched.has(id));
  let requests = 0;
  for (const id of vouched) {
    requests++;
    try {
      if ((await client.order(id)) === null) gone.push(id);
      else kept.add(id);
    } catch (error) {
      if (!unanswered) throw error;
      unanswered(id, error);
    }
  }
  return { kept, gone, requests };
}
