/**
 * The messages between a sync in a worker thread (remote-destination.ts) and the thread that
 * holds its database (destination-service.ts): each call of the sync's destination is a request
 * with an id, answered once, in the order the destination settles it. Streams and lists travel
 * by name (their descriptions hold functions), errors as plain data rebuilt on arrival, so that
 * a database failure is still a DatabaseError on the sync's side.
 */

import type { ValidRecord } from "../api/validate.js";
import type { PageHeader } from "../db/day-page.js";
import type { SyncDestination } from "../db/destination.js";
import { DatabaseError } from "../db/errors.js";
import type { Identified } from "../db/stream-tables.js";
import type { IncomingRecord } from "../db/writers/replace.js";
import type { DayStream } from "../vocabulary.js";

type Method = Exclude<keyof SyncDestination, "location" | "claims">;
/** A call's arguments as the destination takes them. */
type AsIs<M extends Method> = Parameters<SyncDestination[M]>;
type Rest<T> = T extends [unknown, ...infer R] ? R : never;
/** A call whose first argument, a stream or list description, travels by name. */
type ByName<M extends Method, Name> = [name: Name, ...Rest<AsIs<M>>];

/** The arguments of each call, as they travel. */
export interface DestinationCalls {
  closeAbandonedRuns: AsIs<"closeAbandonedRuns">;
  startRun: AsIs<"startRun">;
  finishRun: AsIs<"finishRun">;
  windows: AsIs<"windows">;
  recordWindow: AsIs<"recordWindow">;
  startDate: AsIs<"startDate">;
  saveStartDate: AsIs<"saveStartDate">;
  utcOffsetMinutes: AsIs<"utcOffsetMinutes">;
  saveUtcOffsetMinutes: AsIs<"saveUtcOffsetMinutes">;
  firstRecordedDay: AsIs<"firstRecordedDay">;
  storedLocationOfKey: AsIs<"storedLocationOfKey">;
  isLocationStored: AsIs<"isLocationStored">;
  writeLocation: [
    location: AsIs<"writeLocation">[0],
    context: AsIs<"writeLocation">[1],
    devices: { list: string; records: readonly ValidRecord<Identified>[] } | undefined,
  ];
  useTimeZone: AsIs<"useTimeZone">;
  /** Not the sync's: the clock a remote destination normalizes a location's pages on. */
  timeZoneOf: [locationId: string];
  recordLocationReject: AsIs<"recordLocationReject">;
  writeList: ByName<"writeList", string>;
  /** Not the sync's: what the records of a page prepared on the sync's side bring for the raw
   * archive. */
  archiveTerms: [stream: DayStream];
  /** The page's records cross as rows, normalized on the sync's side, their JSON compressed. */
  writePage: [stream: DayStream, page: PageHeader, records: IncomingRecord[]];
  countStored: ByName<"countStored", DayStream>;
  settleWindowRejects: ByName<"settleWindowRejects", DayStream>;
  unlistedRecords: ByName<"unlistedRecords", DayStream>;
  markDeleted: ByName<"markDeleted", DayStream>;
  recordRejects: AsIs<"recordRejects">;
  missingReportOrders: AsIs<"missingReportOrders">;
  ordersListedByLiveReport: AsIs<"ordersListedByLiveReport">;
  close: AsIs<"close">;
}

export type DestinationMethod = keyof DestinationCalls;

export interface DestinationRequest<M extends DestinationMethod = DestinationMethod> {
  id: number;
  method: M;
  args: DestinationCalls[M];
}

/** An error as it crosses: enough to rebuild what the sync tells apart. */
export interface CrossingError {
  database: boolean;
  name: string;
  message: string;
  code?: string;
  retryable?: boolean;
}

export type DestinationReply =
  | { type: "answer"; id: number; value: unknown }
  | { type: "failure"; id: number; error: CrossingError };

export function toCrossing(error: unknown): CrossingError {
  if (error instanceof DatabaseError)
    return {
      database: true,
      name: error.name,
      message: error.message,
      code: error.code,
      retryable: error.retryable,
    };
  const code = (error as { code?: unknown } | null)?.code;
  return {
    database: false,
    name: error instanceof Error ? error.name : "Error",
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === "string" ? { code } : {}),
  };
}

export function fromCrossing(crossing: CrossingError): Error {
  if (crossing.database)
    return new DatabaseError(crossing.message, crossing.code ?? "UNKNOWN", crossing.retryable);
  const error = new Error(crossing.message) as Error & { code?: string };
  error.name = crossing.name;
  if (crossing.code !== undefined) error.code = crossing.code;
  return error;
}
