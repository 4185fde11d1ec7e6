/** One location's run: its record, its catalog, its day windows, then the cross-check. */

import type { PosApiClient } from "../api/client.js";
import { ApiKeyRejectedError } from "../api/errors.js";
import { discoverStart, type LocationStart } from "../api/first-day.js";
import { today } from "../clock/today.js";
import type { LocationConfig } from "../config/config.js";
import { DatabaseError } from "../db/errors.js";
import type { RepairRecord } from "../db/sql/checkpoints.js";
import { messageOf } from "../errors.js";
import { skippedNotice, startDateOf } from "../start-date.js";
import type { DayStreamDescription } from "../streams/index.js";
import type { WindowStatus } from "../vocabulary.js";
import { auditLocation } from "./audit.js";
import { type SyncContext, timestamp } from "./context.js";
import { fetchMissingReportOrders } from "./cross-check.js";
import { syncDayWindow, type WindowOutcome, type WindowTask } from "./day-window.js";
import { escalateOrDescribe } from "./failures.js";
import { planDays } from "./plan.js";
import { syncCatalog, syncLocationRecord } from "./snapshot-streams.js";
import { addCounts, addProblem, emptyStreamStats, type StreamStats } from "./stats.js";
import { runAll } from "./tasks.js";

/**
 * What a location's first run learns from its reports, in one read remembered for the next
 * runs: the first day its API holds (api/first-day.ts; until it holds a report, each run asks
 * again), and its UTC offset (until its stored orders tell), so that its today is its own from
 * the first run on. An incremental run cannot plan without the first day; for explicit days it
 * is, like the offset, a refinement that does not stop the run: false when it could not be read.
 */
async function learnStart(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
): Promise<boolean> {
  const { destination } = context;
  const needStart = !context.scope.repairDays && !(await destination.startDate(locationId));
  const needOffset = (await destination.utcOffsetMinutes(locationId, context.now())) === undefined;
  if (!needStart && !needOffset) return true;
  const start =
    needStart && !context.scope.range
      ? await discoverStart(client, today(context.now()))
      : await refinementOnly(context, client, locationId);
  if (!start) return !needStart;
  const now = timestamp(context);
  if (needOffset && start.utcOffsetMinutes !== undefined)
    await destination.saveState(
      locationId,
      "utc_offset_minutes",
      String(start.utcOffsetMinutes),
      now,
    );
  if (needStart && start.firstDay !== undefined) {
    await destination.saveState(locationId, "start_date", start.firstDay, now);
    context.logger.info(
      { locationId, startDate: start.firstDay },
      "the location's days start here",
    );
  }
  return true;
}

/** The reports read for what only refines the run: a failure to read them must not stop it.
 * Until the offset is known, the location's today is UTC's. */
async function refinementOnly(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
): Promise<LocationStart | undefined> {
  try {
    return await discoverStart(client, today(context.now()));
  } catch (error) {
    if (context.signal.aborted) throw error;
    // A rejected key or a failing database still stops the location or the run.
    context.logger.warn(
      { locationId, error: escalateOrDescribe(error) },
      "could not read the location's UTC offset from its reports; taking UTC's today for now",
    );
    return undefined;
  }
}

/** The first day a run reads: repaired days name their own; else --since or POS_START_DATE,
 * never before the first day the API holds (start-date.ts), said in one line when it moved. */
async function startDateFor(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
  locationToday: string,
  firstDayRead: boolean,
): Promise<string> {
  const { range } = context.scope;
  const stored = await context.destination.startDate(locationId);
  const firstDay = stored ?? (firstDayRead ? undefined : null);
  const asked = range ? "--since" : "POS_START_DATE";
  const setting = range ? range.since : context.scope.config.startDate;
  const { startDate, skipped } = startDateOf(setting, firstDay, locationToday);
  if (skipped && !context.scope.repairDays) {
    const warning = skippedNotice(asked, skipped);
    context.logger.warn({ locationId, ...skipped }, warning);
    context.stats.location(client.keyFingerprint).warnings.push(warning);
  }
  return startDate;
}

async function planWindows(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
  streams: readonly DayStreamDescription[],
): Promise<{ tasks: WindowTask[]; locationToday: string }> {
  const firstDayRead = await learnStart(context, client, locationId);
  // The location's own today: its clock may be ahead of or behind this machine's.
  const offset = await context.destination.utcOffsetMinutes(locationId, context.now());
  const locationToday = today(context.now(), offset ?? 0);
  const startDate = await startDateFor(context, client, locationId, locationToday, firstDayRead);
  if (!context.scope.range && !context.scope.repairDays && startDate > locationToday) {
    const warning = `POS_START_DATE ${startDate} is after this location's today (${locationToday}): no day is read until then`;
    context.logger.warn({ locationId, startDate, today: locationToday }, warning);
    context.stats.location(client.keyFingerprint).warnings.push(warning);
  }
  // Named in the display as the API or, before it ever answered, the configuration names it.
  const { name, label } = context.stats.location(client.keyFingerprint);
  const tasks: WindowTask[] = [];
  for (const stream of streams) {
    const findings = context.scope.repairDays?.[locationId]?.[stream.name] ?? [];
    const days = context.scope.repairDays
      ? findings.map((f) => f.day)
      : planDays({
          today: locationToday,
          startDate,
          lookbackDays: context.scope.config.lookbackDays,
          windows: await context.destination.windows(locationId, stream.name),
          range: context.scope.range && { ...context.scope.range, since: startDate },
        });
    context.stats.stream(client.keyFingerprint, stream.name).windows.planned += days.length;
    context.progress.planned({
      locationId,
      locationName: name ?? label,
      stream: stream.name,
      days: days.length,
    });
    for (const day of days)
      tasks.push({ stream, day, finding: findings.find((f) => f.day === day) });
  }
  // Oldest days first, reports before orders: both streams advance together.
  tasks.sort((a, b) => a.day.localeCompare(b.day) || a.stream.name.localeCompare(b.stream.name));
  return { tasks, locationToday };
}

/** What to record for a window: a day not over yet is only ever open, however complete. */
function windowStatus(
  outcome: WindowOutcome["status"],
  day: string,
  locationToday: string,
): WindowStatus {
  if (outcome === "interrupted") return "incomplete";
  if (outcome === "complete" && day >= locationToday) return "open";
  return outcome;
}

/** What reading a day again did to it: a read that left the day unproved failed; one that wrote
 * nothing repaired nothing (the day is still as the proof found it); today read again is proved
 * as far as it goes (open). */
function repairOutcome(status: WindowStatus, written: StreamStats): RepairRecord["outcome"] {
  if (status !== "complete" && status !== "open") return "failed";
  return written.inserted + written.updated + written.deleted > 0 ? "repaired" : "unchanged";
}

async function syncWindow(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
  task: WindowTask,
  locationToday: string,
): Promise<void> {
  const { stream, day, finding } = task;
  const stats = context.stats.stream(client.keyFingerprint, stream.name);
  const began = performance.now();
  // A repair keeps its own figures too, to record what reading the day again did.
  const own = finding ? emptyStreamStats() : stats;
  const outcome = await syncDayWindow(context, client, locationId, task, own);
  const status = windowStatus(outcome.status, day, locationToday);
  if (finding) addCounts(stats, own);
  if (finding && outcome.status !== "interrupted") {
    await context.destination.recordRepair({
      ...finding,
      locationId,
      stream: stream.name,
      foundAt: timestamp(context),
      runId: context.runId,
      outcome: repairOutcome(status, own),
      inserted: own.inserted,
      updated: own.updated,
      deleted: own.deleted,
    });
  }
  await context.destination.recordWindow(
    {
      locationId,
      stream: stream.name,
      day,
      status,
      apiTotalCount: outcome.apiTotalCount,
      storedCount: outcome.storedCount,
      lastError: outcome.error,
      runId: context.runId,
    },
    timestamp(context),
  );
  // An open day counts as complete in the run's tally; a suspicious one as not complete.
  const tally = status === "open" ? "complete" : status === "suspicious" ? "incomplete" : status;
  if (outcome.status !== "interrupted") stats.windows[tally]++;
  if (outcome.status !== "complete" && outcome.error) {
    addProblem(stats, { day, error: outcome.error });
  }
  context.progress.windowDone({
    locationId,
    stream: stream.name,
    day,
    records: outcome.records,
    status,
    durationMs: Math.round(performance.now() - began),
  });
}

async function syncWindows(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
  streams: readonly DayStreamDescription[],
): Promise<void> {
  const { tasks, locationToday } = await planWindows(context, client, locationId, streams);
  const readAgain = (task: WindowTask) =>
    syncWindow(context, client, locationId, task, locationToday);
  await runAll(tasks, context.windowLimit, readAgain, () => context.signal.aborted);
  await auditLocation(context, client, locationId, streams, locationToday, readAgain);
}

/** Puts the location's stored hours and wall clocks on the clock its setting names, before any order of the run
 * is stamped with it. */
async function applyTimeZone(
  context: SyncContext,
  locationId: string,
  timeZone: string | null,
): Promise<void> {
  const change = await context.pages.useTimeZone(locationId, timeZone);
  if (change === null) return;
  context.logger.info(
    { locationId, from: change.from, to: change.to, rows: change.rows, days: change.days },
    change.to === null
      ? "hours and wall clocks of stored orders and reports put back on the clock the API writes"
      : `hours and wall clocks of stored orders and reports recomputed on the clock of ${change.to}`,
  );
}

/** An error caused by the stop itself (requests aborted), not by the location. */
function causedByStop(context: SyncContext, error: unknown): boolean {
  return context.signal.aborted && !(error instanceof ApiKeyRejectedError);
}

/** Syncs every selected stream of one location; a rejected key or a failed read stops this
 * location only, a failing database stops the run. */
export async function syncOneLocation(
  context: SyncContext,
  client: PosApiClient,
  location: LocationConfig,
): Promise<void> {
  const stats = context.stats.location(client.keyFingerprint);
  // Named from the start, even if the API cannot be reached: as stored by an earlier run, and
  // as the configuration labels it.
  const stored = await context.destination.storedLocationOfKey(client.keyFingerprint);
  stats.locationId = stored?.id ?? null;
  stats.name = stored?.name ?? null;
  stats.label = location.name ?? null;
  try {
    const record = await syncLocationRecord(context, client, location.apiKey);
    const locationId = record.record.id;
    stats.locationId = locationId;
    stats.name = record.record.name ?? stats.name;
    await applyTimeZone(context, locationId, location.timeZone ?? null);
    if (context.signal.aborted) return;
    if (context.streams.has("catalog")) await syncCatalog(context, client, locationId);
    const dayStreams = context.dayStreams.filter((stream) => context.streams.has(stream.name));
    if (dayStreams.length > 0 && !context.signal.aborted) {
      await syncWindows(context, client, locationId, dayStreams);
    }
    if (!context.signal.aborted) await fetchMissingReportOrders(context, client, locationId);
  } catch (error) {
    if (error instanceof DatabaseError) throw error;
    if (causedByStop(context, error)) return;
    stats.error = messageOf(error);
    stats.keyRejected = error instanceof ApiKeyRejectedError;
    context.logger.error({ key: client.keyFingerprint, locationId: stats.locationId }, stats.error);
  }
}
