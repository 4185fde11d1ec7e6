/** One location's run: its record, its catalog, its day windows, then the cross-check. */
import type { PosApiClient } from "../api/client.js";
import { ApiKeyRejectedError } from "../api/errors.js";
import type { LocationConfig } from "../config.js";
import { today } from "../dates.js";
import { DatabaseError } from "../db/errors.js";
import { locationOffsetMinutes } from "../db/queries.js";
import type { SyncContext } from "./context.js";
import { timestamp } from "./context.js";
import { fetchMissingReportOrders } from "./cross-check.js";
import { syncDayWindow } from "./day-window.js";
import { planDays } from "./plan.js";
import { syncCatalog, syncLocationRecord } from "./snapshot-streams.js";
import { discoverStartDate } from "./start-date.js";
import { MAX_PROBLEMS } from "./stats.js";
import { DAY_STREAMS, type DayStream } from "./streams.js";

interface WindowTask {
  stream: DayStream;
  day: string;
}

/** The first day of history for this location. */
async function startDateFor(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
  locationToday: string,
) {
  return (
    context.startDate ??
    context.checkpoints.firstRecordedDay(locationId) ??
    (await discoverStartDate(client, locationToday))
  );
}

async function planWindows(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
  streams: readonly DayStream[],
): Promise<WindowTask[]> {
  // The location's own today: its clock may be ahead of or behind this machine's.
  const locationToday = today(context.now(), locationOffsetMinutes(context.db, locationId) ?? 0);
  const startDate = context.range
    ? context.range.since
    : await startDateFor(context, client, locationId, locationToday);
  const tasks: WindowTask[] = [];
  for (const stream of streams) {
    const days = planDays({
      today: locationToday,
      startDate,
      lookbackDays: context.lookbackDays,
      windows: context.checkpoints.windows(locationId, stream),
      range: context.range,
    });
    context.stats.stream(client.keyFingerprint, stream).windows.planned += days.length;
    context.progress.planned(stream, days.length);
    for (const day of days) tasks.push({ stream, day });
  }
  // Oldest days first, reports before orders: both streams advance together.
  return tasks.sort((a, b) => a.day.localeCompare(b.day) || a.stream.localeCompare(b.stream));
}

async function syncWindows(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
  streams: readonly DayStream[],
) {
  const tasks = await planWindows(context, client, locationId, streams);
  let fatal: unknown;
  await Promise.all(
    tasks.map(({ stream, day }) =>
      context.windowLimit(async () => {
        if (context.signal.aborted || fatal !== undefined) return;
        const stats = context.stats.stream(client.keyFingerprint, stream);
        try {
          const outcome = await syncDayWindow(context, client, locationId, stream, day, stats);
          const status = outcome.status === "interrupted" ? "incomplete" : outcome.status;
          context.checkpoints.record(
            {
              locationId,
              stream,
              day,
              status,
              apiTotalCount: outcome.apiTotalCount,
              storedCount: outcome.storedCount,
              lastError: outcome.error,
              runId: context.runId,
            },
            timestamp(context),
          );
          if (outcome.status !== "interrupted") stats.windows[status]++;
          if (status !== "complete" && outcome.error && stats.problems.length < MAX_PROBLEMS) {
            stats.problems.push({ day, error: outcome.error });
          }
          context.progress.windowDone({
            location: locationId,
            stream,
            day,
            records: outcome.records,
            status: outcome.status,
          });
        } catch (error) {
          // A rejected key or a failing disk: nothing more can be done for this location.
          fatal ??= error;
        }
      }),
    ),
  );
  if (fatal !== undefined) throw fatal;
}

/** Syncs every selected stream of one location; a rejected key or a failed read stops this
 * location only, a database failure stops the run. */
export async function syncOneLocation(
  context: SyncContext,
  client: PosApiClient,
  location: LocationConfig,
): Promise<void> {
  const stats = context.stats.location(client.keyFingerprint);
  stats.name = location.name ?? null;
  try {
    const record = await syncLocationRecord(context, client, location.apiKey);
    const locationId = record.record.id;
    stats.locationId = locationId;
    stats.name = record.record.name ?? stats.name;
    if (context.signal.aborted) return;
    if (context.streams.has("catalog")) await syncCatalog(context, client, locationId);
    const dayStreams = DAY_STREAMS.filter((stream) => context.streams.has(stream));
    if (dayStreams.length > 0 && !context.signal.aborted)
      await syncWindows(context, client, locationId, dayStreams);
    if (context.streams.has("orders") && !context.signal.aborted)
      await fetchMissingReportOrders(context, client, locationId);
  } catch (error) {
    if (error instanceof DatabaseError) throw error;
    if (context.signal.aborted) return;
    stats.error = error instanceof Error ? error.message : String(error);
    stats.keyRejected = error instanceof ApiKeyRejectedError;
    context.logger.error({ key: client.keyFingerprint, locationId: stats.locationId }, stats.error);
  }
}
