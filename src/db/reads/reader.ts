/**
 * Everything pos-sync reads back from a destination (ReadableDestination, destination.ts), one
 * class for both databases, built by who reads (base.ts lists them); each destination reads
 * through one of these on its own connection.
 */

import type { QueryResult } from "../sql/dialect.js";
import { DeliveryReads } from "./deliveries.js";

/** A location's turns among several workers (PostgreSQL), as status shows them. */
export interface LocationTurn {
  /** The key's fingerprint. */
  key: string;
  /** The worker (host:pid) syncing it now, if any: a worker that died shows until another
   * takes the location over. */
  heldBy: string | null;
  heldSince: string | null;
  lastDoneBy: string | null;
  lastDoneAt: string | null;
}

export class SqlReader extends DeliveryReads {
  /** An analyst's SQL, as the demo shows it: columns named as the query names them. */
  runQuery(sql: string): Promise<QueryResult> {
    return this.sql.table(sql);
  }

  /** Who syncs which location, where several workers share the destination (PostgreSQL). */
  locationTurns?(): Promise<LocationTurn[]>;
}
