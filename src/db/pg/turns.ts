/** Who syncs which location, where several workers share the schema: read from the claims
 * (claims.ts) for status. */

import type { LocationTurn, TurnReads } from "../reads/reader.js";
import type { ReadSession } from "../reads/session.js";

export class PgTurnReads implements TurnReads {
  constructor(private readonly db: ReadSession) {}

  /** Per location, the worker syncing it now and the last turn that finished: looked up key by
   * key on the claims' indexes (location_claims_open, location_claims_key), as a daemon's year of
   * turns is hundreds of thousands. The keys: the stored locations', and those of turns whose
   * location is not known yet. */
  locationTurns(): Promise<LocationTurn[]> {
    return this.db.all(
      `SELECT k.key, running.worker AS "heldBy", running.started_at AS "heldSince",
              done.worker AS "lastDoneBy", done.finished_at AS "lastDoneAt"
       FROM (SELECT api_key_fingerprint AS key FROM locations
             UNION SELECT key_fingerprint FROM location_claims
               WHERE status = 'running' OR location_id IS NULL) k
       LEFT JOIN LATERAL (
         SELECT worker, started_at FROM location_claims c
         WHERE c.key_fingerprint = k.key AND c.status = 'running' ORDER BY c.id DESC LIMIT 1
       ) running ON true
       LEFT JOIN LATERAL (
         SELECT worker, finished_at FROM location_claims c
         WHERE c.key_fingerprint = k.key AND c.status = 'done' ORDER BY c.started_at DESC LIMIT 1
       ) done ON true
       WHERE EXISTS (SELECT 1 FROM location_claims c WHERE c.key_fingerprint = k.key)
       ORDER BY k.key`,
    );
  }
}
