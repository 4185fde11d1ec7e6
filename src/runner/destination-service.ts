/**
 * The database side of a sync that runs in a worker thread: the command's thread, idle while the
 * run reads the API, writes through the connection that holds the writer lease, and runs each
 * call that arrives on the port as it arrives (a call does not wait for the one before it to
 * settle, just as when the destination lives in the sync's own thread), answering each once it
 * settles. The sync's side is remote-destination.ts.
 */
import type { MessagePort } from "node:worker_threads";
import type { SqliteDestination } from "../db/sqlite-destination.js";
import type { SnapshotListTables } from "../db/stream-tables.js";
import { CATALOG_LISTS, DAY_STREAM_DESCRIPTIONS, DEVICES } from "../streams/index.js";
import type { DayStream } from "../vocabulary.js";
import {
  type DestinationCalls,
  type DestinationMethod,
  type DestinationReply,
  type DestinationRequest,
  toCrossing,
} from "./destination-protocol.js";

const dayStreams = new Map(DAY_STREAM_DESCRIPTIONS.map((stream) => [stream.name, stream]));
const lists = new Map<string, SnapshotListTables>(
  [...CATALOG_LISTS, DEVICES].map((list) => [list.name, list]),
);

function dayStream(name: DayStream) {
  const stream = dayStreams.get(name);
  if (!stream) throw new Error(`no day stream is named ${name}`);
  return stream;
}

function list(name: string) {
  const found = lists.get(name);
  if (!found) throw new Error(`no list is named ${name}`);
  return found;
}

/** Every call but `close`, which the service answers itself (it closes the file once). */
type Handlers = {
  [M in Exclude<DestinationMethod, "close">]: (
    destination: SqliteDestination,
    args: DestinationCalls[M],
  ) => Promise<unknown>;
};

const handlers = {
  closeAbandonedRuns: (d, [now]) => d.closeAbandonedRuns(now),
  startRun: (d, [trigger, startedAt]) => d.startRun(trigger, startedAt),
  finishRun: (d, [runId, end]) => d.finishRun(runId, end),
  windows: (d, [locationId, stream]) => d.windows(locationId, stream),
  recordWindow: (d, [window, now]) => d.recordWindow(window, now),
  startDate: (d, [locationId]) => d.startDate(locationId),
  saveStartDate: (d, [locationId, day, now]) => d.saveStartDate(locationId, day, now),
  utcOffsetMinutes: (d, [locationId, at]) => d.utcOffsetMinutes(locationId, at),
  saveUtcOffsetMinutes: (d, [locationId, minutes, now]) =>
    d.saveUtcOffsetMinutes(locationId, minutes, now),
  firstRecordedDay: (d, [locationId]) => d.firstRecordedDay(locationId),
  storedLocationOfKey: (d, [fingerprint]) => d.storedLocationOfKey(fingerprint),
  isLocationStored: (d, [locationId]) => d.isLocationStored(locationId),
  writeLocation: (d, [location, context, devices]) =>
    d.writeLocation(
      location,
      context,
      devices ? { list: list(devices.list), records: devices.records } : undefined,
    ),
  useTimeZone: (d, [locationId, timeZone]) => d.useTimeZone(locationId, timeZone),
  timeZoneOf: (d, [locationId]) => d.timeZoneOf(locationId),
  recordLocationReject: (d, [reject, context]) => d.recordLocationReject(reject, context),
  writeList: (d, [name, validated, context]) => d.writeList(list(name), validated, context),
  archiveTerms: (d, [stream]) => d.archiveTerms(dayStream(stream)),
  writePage: (d, [stream, page, records]) => d.writePreparedPage(dayStream(stream), page, records),
  countStored: (d, [stream, ids]) => d.countStored(dayStream(stream), ids),
  settleWindowRejects: (d, [stream, locationId, day, rejects]) =>
    d.settleWindowRejects(dayStream(stream), locationId, day, rejects),
  unlistedRecords: (d, [stream, locationId, day, listedIds]) =>
    d.unlistedRecords(dayStream(stream), locationId, day, listedIds),
  markDeleted: (d, [stream, ids, at]) => d.markDeleted(dayStream(stream), ids, at),
  recordRejects: (d, [stream, rejects, context]) => d.recordRejects(stream, rejects, context),
  missingReportOrders: (d, [locationId, limit]) => d.missingReportOrders(locationId, limit),
  ordersListedByLiveReport: (d, [locationId, orderIds]) =>
    d.ordersListedByLiveReport(locationId, orderIds),
} satisfies Handlers;

/** What each call answers. */
export type DestinationResults = {
  [M in Exclude<DestinationMethod, "close">]: Awaited<ReturnType<(typeof handlers)[M]>>;
} & { close: undefined };

export interface DestinationService {
  /** Commits what is in hand and closes the port; the connection stays its owner's. */
  close(): Promise<void>;
}

/** Answers the calls that arrive on `port` with `destination`. */
export function serveDestination(
  port: MessagePort,
  destination: SqliteDestination,
): DestinationService {
  let closing: Promise<void> | undefined;
  const closeDestination = () => {
    closing ??= destination.commit();
    return closing;
  };
  const send = (reply: DestinationReply) => port.postMessage(reply);
  // Async, so that a call that throws at once (an unknown stream) is answered like any other.
  const perform = async (request: DestinationRequest): Promise<unknown> => {
    // The sync's `close` commits before its run answers: the command reads, moves or deletes
    // the file the moment it has the answer.
    if (request.method === "close") return closeDestination();
    const handler = handlers[request.method] as (
      destination: SqliteDestination,
      args: DestinationCalls[DestinationMethod],
    ) => Promise<unknown>;
    return handler(destination, request.args);
  };
  port.on("message", (request: DestinationRequest) => {
    perform(request).then(
      (value) => send({ type: "answer", id: request.id, value }),
      (error: unknown) => send({ type: "failure", id: request.id, error: toCrossing(error) }),
    );
  });
  return { close: () => closeDestination().finally(() => port.close()) };
}
