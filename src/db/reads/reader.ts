/**
 * What a command that only reads opens: one reader for both databases, composed of a store per
 * role that reads (each with its SQL beside it), all on one session (session.ts). Each caller
 * takes the narrowest part it needs: the morning report its own reads, status status', and so
 * on. A destination that writes carries one too (destination.ts), on its own connection.
 */

import { ChangeReads } from "./changes.js";
import { CheckpointReads } from "./checkpoints.js";
import { DayFactReads } from "./day-facts.js";
import { MessageReads } from "./deliveries.js";
import { LocationReads, type TimeZoneSource } from "./locations.js";
import { MorningReportReads } from "./morning-report.js";
import { QueryReads } from "./queries.js";
import type { ReadSession } from "./session.js";
import { StatusReads } from "./status.js";

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

/** Who syncs which location, where several workers share the database (PostgreSQL). */
export interface TurnReads {
  locationTurns(): Promise<LocationTurn[]>;
}

export interface Reader {
  /** The database, for messages (a file's path, a server and schema). */
  readonly where: string;
  /** What is known of each location: its clock, its start, its key's location. */
  readonly locations: LocationReads;
  /** The day windows, the runs and the audit's progress. */
  readonly checkpoints: CheckpointReads;
  /** Stored days as the sync and verify compare them with the API. */
  readonly days: DayFactReads;
  /** Rows, rejects, sales and reconciliation, as status shows them. */
  readonly status: StatusReads;
  /** The order changes pos-sync saw. */
  readonly changes: ChangeReads;
  /** The morning report's figures and exceptions. */
  readonly report: MorningReportReads;
  /** The outbox, the alerts and the facts alerts are decided on. */
  readonly messages: MessageReads;
  /** An analyst's SQL (the demo). */
  readonly queries: QueryReads;
  /** Present where several workers take turns on the locations. */
  readonly turns?: TurnReads;
  close(): Promise<void>;
}

export interface ReaderParts {
  /** Closes what the reader opened (nothing, for a connection lent to it). */
  close?: () => Promise<void>;
  /** Where the time zones are read from, when not from the locations table. */
  timeZoneOf?: TimeZoneSource;
  turns?: (session: ReadSession) => TurnReads;
}

/** The stores of reads on one session. */
export function composeReader(session: ReadSession, parts: ReaderParts = {}): Reader {
  const locations = new LocationReads(session, parts.timeZoneOf);
  return {
    where: session.where,
    locations,
    checkpoints: new CheckpointReads(session),
    days: new DayFactReads(session, locations),
    status: new StatusReads(session),
    changes: new ChangeReads(session),
    report: new MorningReportReads(session),
    messages: new MessageReads(session),
    queries: new QueryReads(session),
    ...(parts.turns ? { turns: parts.turns(session) } : {}),
    close: parts.close ?? (async () => {}),
  };
}
