/** What the database holds, per location and stream: read from the checkpoints, no API call. */

import { addDays, daysBetween, eachDay, today } from "../dates.js";
import type { Db } from "../db/open.js";
import { countRejected, countRows, locationOffsetMinutes, type RowCounts } from "../db/queries.js";
import { dayRanges, formatRanges } from "./plan.js";
import { checkRunProcess, effectiveRunStatus, type ProcessCheck } from "./run-liveness.js";
import { DAY_STREAMS, type DayStream } from "./streams.js";

export type GapStatus = "missing" | "incomplete" | "failed" | "suspicious";

export interface Gap {
  from: string;
  to: string;
  /** missing: never read; incomplete or failed: read, and not proven complete; suspicious: the
   * API suddenly listed far fewer records than were stored (nothing was deleted). */
  status: GapStatus;
  error: string | null;
}

export interface DayStreamStatus {
  stream: DayStream;
  /** The location's today: days after it are never gaps. */
  today: string;
  firstDay: string | null;
  /** The last day of the unbroken run of complete days from the first: days whose end was
   * read. */
  completeThrough: string | null;
  /** The same run counting open days too: how far the data reaches (the sync's lag). */
  readThrough: string | null;
  /** Days read completely while they were still going (the location's today, usually): the
   * next run reads them again. */
  openDays: string[];
  lastSyncedAt: string | null;
  completeDays: number;
  gaps: Gap[];
  /** Windows stored for days after today (by a run from before such dates were refused). */
  futureDays: string[];
  /** Live rows; rows the API stopped listing count apart, in `deleted`. */
  rows: number;
  deleted: number;
  /** Distinct records set aside in rejected_records. */
  rejected: number;
}

export interface SnapshotStatus {
  stream: "location" | "catalog";
  syncedAt: string | null;
  status: string | null;
  error: string | null;
  /** Rows per table: live and marked deleted. */
  tables: Record<string, RowCounts>;
}

export interface LocationStatus {
  id: string;
  name: string | null;
  /** Whether its location record was read (its name may still be null). */
  read: boolean;
  key: string | null;
  streams: DayStreamStatus[];
  snapshots: SnapshotStatus[];
}

export interface RunSummary {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  /** interrupted for a run recorded as running whose process is gone; else as recorded. */
  status: string;
  recordedStatus: string;
  /** For a run recorded as running: whether its process was found (null once it ended). */
  process: ProcessCheck | null;
  pid: number | null;
  hostname: string | null;
  trigger: string;
  requests: number | null;
  error: string | null;
}

export interface StatusReport {
  database: string;
  today: string;
  locations: LocationStatus[];
  lastRun: RunSummary | null;
}

interface WindowRow {
  day: string;
  status: string;
  last_error: string | null;
  synced_at: string;
}

/** Complete, or open: read completely while the day was still going. Neither is a gap. */
function isRead(status: string | undefined): boolean {
  return status === "complete" || status === "open";
}

function gapsOf(windows: WindowRow[], through: string): Gap[] {
  const byDay = new Map(windows.map((w) => [w.day, w]));
  const first = windows[0]?.day;
  if (!first) return [];
  const notRead = eachDay(first, through).filter((day) => !isRead(byDay.get(day)?.status));
  const gaps: Gap[] = [];
  for (const status of ["missing", "incomplete", "failed", "suspicious"] as const) {
    const days = notRead.filter((day) => (byDay.get(day)?.status ?? "missing") === status);
    for (const range of dayRanges(days)) {
      gaps.push({ ...range, status, error: byDay.get(range.to)?.last_error ?? null });
    }
  }
  return gaps.sort((a, b) => a.from.localeCompare(b.from));
}

/** The last day of the unbroken run, from the first window, of days whose status counts. */
function unbrokenThrough(windows: WindowRow[], counts: (status: string) => boolean): string | null {
  const days = new Set(windows.filter((w) => counts(w.status)).map((w) => w.day));
  let through: string | null = null;
  const first = windows[0]?.day;
  for (let day = first; day !== undefined && days.has(day); day = addDays(day, 1)) through = day;
  return through;
}

function dayStreamStatus(
  db: Db,
  locationId: string,
  stream: DayStream,
  todayDay: string,
): DayStreamStatus {
  const all = db.sqlite
    .prepare(
      "SELECT day, status, last_error, synced_at FROM sync_windows WHERE location_id = ? AND stream = ? ORDER BY day",
    )
    .all(locationId, stream) as WindowRow[];
  const windows = all.filter((w) => w.day <= todayDay);
  const rows = countRows(db, stream, locationId);
  return {
    stream,
    today: todayDay,
    firstDay: windows[0]?.day ?? null,
    completeThrough: unbrokenThrough(windows, (status) => status === "complete"),
    readThrough: unbrokenThrough(windows, isRead),
    openDays: windows.filter((w) => w.status === "open").map((w) => w.day),
    lastSyncedAt: all.reduce<string | null>(
      (latest, w) => (latest && latest > w.synced_at ? latest : w.synced_at),
      null,
    ),
    completeDays: windows.filter((w) => w.status === "complete").length,
    gaps: gapsOf(windows, todayDay),
    futureDays: all.filter((w) => w.day > todayDay).map((w) => w.day),
    rows: rows.live,
    deleted: rows.deleted,
    rejected: countRejected(db, stream, locationId),
  };
}

const SNAPSHOT_TABLES = {
  location: ["devices"],
  catalog: ["products", "categories", "modifiers", "payment_methods", "taxes"],
} as const;

function snapshotStatus(
  db: Db,
  locationId: string,
  stream: "location" | "catalog",
): SnapshotStatus {
  const window = db.sqlite
    .prepare(
      "SELECT status, last_error, synced_at FROM sync_windows WHERE location_id = ? AND stream = ? ORDER BY day DESC LIMIT 1",
    )
    .get(locationId, stream) as Omit<WindowRow, "day"> | undefined;
  const tables: SnapshotStatus["tables"] = {};
  for (const table of SNAPSHOT_TABLES[stream]) tables[table] = countRows(db, table, locationId);
  return {
    stream,
    syncedAt: window?.synced_at ?? null,
    status: window?.status ?? null,
    error: window?.last_error ?? null,
    tables,
  };
}

function lastRun(db: Db): RunSummary | null {
  const run = db.sqlite
    .prepare(
      `SELECT id, started_at AS startedAt, finished_at AS finishedAt, status, "trigger", requests,
              error, pid, hostname
       FROM sync_runs ORDER BY id DESC LIMIT 1`,
    )
    .get() as Omit<RunSummary, "recordedStatus" | "process"> | undefined;
  if (!run) return null;
  const check = checkRunProcess(run);
  return {
    ...run,
    status: effectiveRunStatus(run, check),
    recordedStatus: run.status,
    process: check,
  };
}

export function collectStatus(db: Db, now: Date = new Date()): StatusReport {
  const known = db.sqlite
    .prepare(
      `SELECT id, name, 1 AS read, api_key_fingerprint AS key FROM locations
       UNION SELECT DISTINCT location_id, NULL, 0, NULL FROM sync_windows WHERE location_id NOT IN (SELECT id FROM locations)
       ORDER BY name`,
    )
    .all() as { id: string; name: string | null; read: number; key: string | null }[];
  return {
    database: db.path,
    today: today(now),
    lastRun: lastRun(db),
    locations: known.map((location) => {
      // A location's day is its own calendar's: the offset of its stored orders, else UTC.
      const locationToday = today(now, locationOffsetMinutes(db, location.id) ?? 0);
      return {
        ...location,
        read: location.read === 1,
        streams: DAY_STREAMS.map((stream) =>
          dayStreamStatus(db, location.id, stream, locationToday),
        ),
        snapshots: [
          snapshotStatus(db, location.id, "location"),
          snapshotStatus(db, location.id, "catalog"),
        ],
      };
    }),
  };
}

const number = new Intl.NumberFormat("en-US");

function when(timestamp: string | null): string {
  return timestamp ? timestamp.slice(0, 16).replace("T", " ") : "never";
}

function gapText(gap: Gap): string {
  const days = gap.from === gap.to ? gap.from : `${gap.from}..${gap.to}`;
  return `${days} ${gap.status}${gap.error ? ` (${gap.error})` : ""}`;
}

function secondsBetween(from: string, to: string): string {
  return `${((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1)} s`;
}

/** How a run that did not record its end stands, as far as this host can tell. */
function unfinishedText(run: RunSummary): string {
  switch (run.process) {
    case "alive":
      return `not finished yet (process ${run.pid})`;
    case "gone":
      return `its process ${run.pid} ended without finishing it (killed?); the next sync reads again what it left`;
    case "other-host":
      return `not finished, or interrupted: its process ${run.pid} runs on ${run.hostname}, which cannot be checked from here`;
    default:
      return "not finished, or interrupted: the pos-sync that started it recorded no process to check";
  }
}

function runLine(run: RunSummary | null): string {
  if (!run) return "No run yet: start one with pos-sync sync";
  const status =
    run.process === "other-host" || run.process === "no-pid"
      ? "running or interrupted"
      : run.status;
  const end = run.finishedAt
    ? `took ${secondsBetween(run.startedAt, run.finishedAt)}`
    : unfinishedText(run);
  const requests = run.requests === null ? "" : `, ${number.format(run.requests)} requests`;
  return (
    `Last run #${run.id} ${status} (${run.trigger}), started ${when(run.startedAt)} UTC, ` +
    `${end}${requests}${run.error ? `: ${run.error}` : ""}`
  );
}

function locationName(location: LocationStatus): string {
  if (location.name) return location.name;
  return location.read ? "(no name)" : "(location not read yet)";
}

function streamLines(stream: DayStreamStatus): string[] {
  const head = `  ${stream.stream.padEnd(8)}`;
  const indent = " ".repeat(11);
  const lines: string[] = [];
  if (!stream.firstDay) {
    lines.push(`${head} never synced`);
  } else {
    const behind = stream.completeThrough
      ? daysBetween(stream.completeThrough, stream.today)
      : null;
    const open =
      stream.openDays.length > 0
        ? `, ${formatRanges(stream.openDays)} open (read before the day ended)`
        : "";
    const deleted =
      stream.deleted > 0 ? ` (+${number.format(stream.deleted)} deleted upstream)` : "";
    lines.push(
      `${head} complete through ${stream.completeThrough ?? "—"}${behind && behind > 1 ? ` (${behind} days behind)` : ""}${open}, ` +
        `${stream.completeDays} complete days since ${stream.firstDay}, ${number.format(stream.rows)} rows${deleted}, ` +
        `${stream.rejected} rejected, last synced ${when(stream.lastSyncedAt)}`,
    );
    const gaps = stream.gaps.slice(0, 5).map(gapText);
    if (gaps.length > 0)
      lines.push(
        `${indent}not complete: ${gaps.join("; ")}${stream.gaps.length > 5 ? `; and ${stream.gaps.length - 5} more` : ""}`,
      );
  }
  if (stream.futureDays.length > 0)
    lines.push(
      `${indent}ignored: windows stored for days after today (${formatRanges(stream.futureDays)})`,
    );
  return lines;
}

function snapshotLine(snapshot: SnapshotStatus): string {
  const tables = Object.entries(snapshot.tables)
    .map(
      ([table, n]) =>
        `${number.format(n.live)} ${table.replace("_", " ")}${n.deleted ? ` (+${n.deleted} deleted)` : ""}`,
    )
    .join(", ");
  const state =
    snapshot.status && snapshot.status !== "complete"
      ? ` ${snapshot.status}: ${snapshot.error}`
      : "";
  return `  ${snapshot.stream.padEnd(8)} synced ${when(snapshot.syncedAt)}${state}; ${tables}`;
}

export function formatStatus(report: StatusReport): string {
  const lines = [`Database ${report.database}`, runLine(report.lastRun)];
  for (const location of report.locations) {
    lines.push(
      "",
      `${locationName(location)}  ${location.id}${location.key ? `  ${location.key}` : ""}`,
    );
    for (const stream of location.streams) lines.push(...streamLines(stream));
    for (const snapshot of location.snapshots) lines.push(snapshotLine(snapshot));
  }
  return `${lines.join("\n")}\n`;
}
