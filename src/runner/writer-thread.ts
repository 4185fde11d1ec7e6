/**
 * The thread that writes a sync's database: it opens the file (one connection, the only writer)
 * and runs each call the sync's thread sends on its SqliteDestination, as they arrive (a call
 * does not wait for the one before it to settle, just as when the destination lives in the same
 * thread), and answers each once it settles. Started by threaded-destination.ts.
 */
import { parentPort, workerData } from "node:worker_threads";
import { SqliteDestination } from "../db/sqlite-destination.js";
import type { SnapshotListTables } from "../db/stream-tables.js";
import { CATALOG_LISTS, DAY_STREAM_DESCRIPTIONS, DEVICES } from "../streams/index.js";
import type { DayStream } from "../vocabulary.js";
import {
  toCrossing,
  type WriterCalls,
  type WriterMethod,
  type WriterReply,
  type WriterRequest,
  type WriterThreadInput,
} from "./writer-protocol.js";

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

type Handlers = {
  [M in WriterMethod]: (destination: SqliteDestination, args: WriterCalls[M]) => Promise<unknown>;
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
  close: (d) => d.close(),
} satisfies Handlers;

/** What each call answers. */
export type WriterResults = {
  [M in WriterMethod]: Awaited<ReturnType<(typeof handlers)[M]>>;
};

function serve(port: NonNullable<typeof parentPort>, destination: SqliteDestination): void {
  const send = (reply: WriterReply) => port.postMessage(reply);
  port.on("message", (request: WriterRequest) => {
    const handler = handlers[request.method] as (
      destination: SqliteDestination,
      args: WriterCalls[WriterMethod],
    ) => Promise<unknown>;
    handler(destination, request.args).then(
      (value) => {
        send({ type: "answer", id: request.id, value });
        // Answered first: the sync's side waits for the answer, then for the thread's end.
        if (request.method === "close") port.close();
      },
      (error: unknown) => {
        send({ type: "failure", id: request.id, error: toCrossing(error) });
        if (request.method === "close") port.close();
      },
    );
  });
}

function main(port: NonNullable<typeof parentPort>): void {
  const input = workerData as WriterThreadInput;
  let destination: SqliteDestination;
  try {
    destination = SqliteDestination.open(input.dbPath, { keepRaw: input.keepRaw });
  } catch (error) {
    port.postMessage({ type: "unusable", error: toCrossing(error) } satisfies WriterReply);
    port.close();
    return;
  }
  serve(port, destination);
  port.postMessage({ type: "ready" } satisfies WriterReply);
}

if (parentPort) main(parentPort);
