/**
 * The messages between a sync in a worker thread (remote-destination.ts) and the thread that
 * holds its database (destination-service.ts): each call of the sync's destination is a request
 * with an id, answered once, in the order the destination settles it. Streams and lists travel by name (their descriptions hold functions),
 * errors as plain data rebuilt on arrival, so that a database failure is still a DatabaseError
 * on the sync's side.
 */

import type { Location } from "../api/schemas.js";
import type { RejectedRecord, ValidatedRecords, ValidRecord } from "../api/validate.js";
import type { PageHeader } from "../db/day-page.js";
import type { RunEnd, WindowRecord } from "../db/destination.js";
import { DatabaseError } from "../db/errors.js";
import type { ListContext } from "../db/store.js";
import type { Identified } from "../db/stream-tables.js";
import type { IncomingRecord } from "../db/writers/replace.js";
import type { DayStream, RunTrigger, Stream } from "../vocabulary.js";

type RejectContext = {
  locationId: string;
  runId: number | null;
  rejectedAt: string;
  requestedId?: string;
};

/** The arguments of each call, as they travel: streams and lists by name. */
export interface DestinationCalls {
  closeAbandonedRuns: [now: string];
  startRun: [trigger: RunTrigger, startedAt: string];
  finishRun: [runId: number, end: RunEnd];
  windows: [locationId: string, stream: Stream];
  recordWindow: [window: WindowRecord, now: string];
  startDate: [locationId: string];
  saveStartDate: [locationId: string, day: string, now: string];
  utcOffsetMinutes: [locationId: string, at: Date];
  saveUtcOffsetMinutes: [locationId: string, minutes: number, now: string];
  firstRecordedDay: [locationId: string];
  storedLocationOfKey: [fingerprint: string];
  isLocationStored: [locationId: string];
  writeLocation: [
    location: ValidRecord<Location>,
    context: { syncedAt: string; apiKeyFingerprint: string },
    devices: { list: string; records: readonly ValidRecord<Identified>[] } | undefined,
  ];
  useTimeZone: [locationId: string, timeZone: string | null];
  timeZoneOf: [locationId: string];
  recordLocationReject: [
    reject: RejectedRecord,
    context: { runId: number | null; rejectedAt: string },
  ];
  writeList: [list: string, validated: ValidatedRecords<Identified>, context: ListContext];
  writePage: [stream: DayStream, page: PageHeader, records: IncomingRecord[]];
  countStored: [stream: DayStream, ids: readonly string[]];
  settleWindowRejects: [
    stream: DayStream,
    locationId: string,
    day: string,
    rejects: readonly RejectedRecord[],
  ];
  unlistedRecords: [
    stream: DayStream,
    locationId: string,
    day: string,
    listedIds: readonly string[],
  ];
  markDeleted: [stream: DayStream, ids: readonly string[], at: string];
  recordRejects: [stream: string, rejects: readonly RejectedRecord[], context: RejectContext];
  missingReportOrders: [locationId: string, limit: number];
  ordersListedByLiveReport: [locationId: string, orderIds: readonly string[]];
  close: [];
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
