/** What the database holds, per location and stream: read from the checkpoints, no API call. */

import { addDays, daysBetween, eachDay, today } from "../dates.js";
import type { Db } from "../db/open.js";
import { dayRanges } from "./plan.js";
import { DAY_STREAMS, type DayStream } from "./streams.js";

export interface Gap {
  from: string;
  to: string;
  /** missing: never read; incomplete or failed: read, and not proven complete. */
  status: "missing" | "incomplete" | "failed";
  error: string | null;
}

export interface DayStreamStatus {
  stream: DayStream;
  firstDay: string | null;
  /** The last day of the unbroken run of complete days from the first. */
  completeThrough: string | null;
  lastSyncedAt: string | null;
  completeDays: number;
  gaps: Gap[];
  rows: number;
  rejected: number;
}

export interface SnapshotStatus {
  stream: "location" | "catalog";
  syncedAt: string | null;
  status: string | null;
  error: string | null;
  /** Rows per table: live and marked deleted. */
  tables: Record<string, { live: number; deleted: number }>;
}

export interface LocationStatus {
  id: string;
  name: string | null;
  key: string | null;
  streams: DayStreamStatus[];
  snapshots: SnapshotStatus[];
}

export interface RunSummary {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: string;
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

function count(db: Db, sql: string, ...params: unknown[]): number {
  return db.sqlite
    .prepare(sql)
    .pluck()
    .get(...params) as number;
}

/** Complete, or open: read completely while the day was still going. */
function isRead(status: string | undefined): boolean {
  return status === "complete" || status === "open";
}

function gapsOf(windows: WindowRow[], through: string): Gap[] {
  const byDay = new Map(windows.map((w) => [w.day, w]));
  const first = windows[0]?.day;
  if (!first) return [];
  const notComplete = eachDay(first, through).filter((day) => !isRead(byDay.get(day)?.status));
  const gaps: Gap[] = [];
  for (const status of ["missing", "incomplete", "failed"] as const) {
    const days = notComplete.filter((day) => (byDay.get(day)?.status ?? "missing") === status);
    for (const range of dayRanges(days)) {
      gaps.push({ ...range, status, error: byDay.get(range.to)?.last_error ?? null });
    }
  }
  return gaps.sort((a, b) => a.from.localeCompare(b.from));
}

function dayStreamStatus(
  db: Db,
  locationId: string,
  stream: DayStream,
  todayDay: string,
): DayStreamStatus {
  const windows = db.sqlite
    .prepare(
      "SELECT day, status, last_error, synced_at FROM sync_windows WHERE location_id = ? AND stream = ? ORDER BY day",
    )
    .all(locationId, stream) as WindowRow[];
  const firstDay = windows[0]?.day ?? null;
  let completeThrough: string | null = null;
  if (firstDay) {
    const complete = new Set(windows.filter((w) => isRead(w.status)).map((w) => w.day));
    for (let day = firstDay; complete.has(day); day = addDays(day, 1)) completeThrough = day;
  }
  const lastDay = windows.at(-1)?.day ?? todayDay;
  return {
    stream,
    firstDay,
    completeThrough,
    lastSyncedAt: windows.reduce<string | null>(
      (latest, w) => (latest && latest > w.synced_at ? latest : w.synced_at),
      null,
    ),
    completeDays: windows.filter((w) => isRead(w.status)).length,
    gaps: gapsOf(windows, lastDay > todayDay ? lastDay : todayDay),
    rows: count(db, `SELECT COUNT(*) FROM "${stream}" WHERE location_id = ?`, locationId),
    rejected: count(
      db,
      "SELECT COUNT(*) FROM rejected_records WHERE location_id = ? AND stream = ?",
      locationId,
      stream,
    ),
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
  for (const table of SNAPSHOT_TABLES[stream]) {
    tables[table] = {
      live: count(
        db,
        `SELECT COUNT(*) FROM "${table}" WHERE location_id = ? AND deleted_at IS NULL`,
        locationId,
      ),
      deleted: count(
        db,
        `SELECT COUNT(*) FROM "${table}" WHERE location_id = ? AND deleted_at IS NOT NULL`,
        locationId,
      ),
    };
  }
  return {
    stream,
    syncedAt: window?.synced_at ?? null,
    status: window?.status ?? null,
    error: window?.last_error ?? null,
    tables,
  };
}

export function collectStatus(db: Db, now: Date = new Date()): StatusReport {
  const todayDay = today(now);
  const known = db.sqlite
    .prepare(
      `SELECT id, name, api_key_fingerprint AS key FROM locations
       UNION SELECT DISTINCT location_id, NULL, NULL FROM sync_windows WHERE location_id NOT IN (SELECT id FROM locations)
       ORDER BY name`,
    )
    .all() as { id: string; name: string | null; key: string | null }[];
  const lastRun = db.sqlite
    .prepare(
      `SELECT id, started_at AS startedAt, finished_at AS finishedAt, status, "trigger", requests, error
       FROM sync_runs ORDER BY id DESC LIMIT 1`,
    )
    .get() as RunSummary | undefined;
  return {
    database: db.path,
    today: todayDay,
    lastRun: lastRun ?? null,
    locations: known.map((location) => ({
      ...location,
      streams: DAY_STREAMS.map((stream) => dayStreamStatus(db, location.id, stream, todayDay)),
      snapshots: [
        snapshotStatus(db, location.id, "location"),
        snapshotStatus(db, location.id, "catalog"),
      ],
    })),
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

export function formatStatus(report: StatusReport): string {
  const lines = [`Database ${report.database}`];
  const run = report.lastRun;
  lines.push(
    run
      ? `Last run #${run.id} ${run.status} (${run.trigger}), started ${when(run.startedAt)} UTC, ` +
          `${run.finishedAt ? `took ${daysBetweenSeconds(run.startedAt, run.finishedAt)}` : "not finished"}` +
          `${run.requests === null ? "" : `, ${number.format(run.requests)} requests`}${run.error ? `: ${run.error}` : ""}`
      : "No run yet: start one with pos-sync sync",
  );
  for (const location of report.locations) {
    lines.push(
      "",
      `${location.name ?? "(location not read yet)"}  ${location.id}${location.key ? `  ${location.key}` : ""}`,
    );
    for (const stream of location.streams) {
      const head = `  ${stream.stream.padEnd(8)}`;
      if (!stream.firstDay) {
        lines.push(`${head} never synced`);
        continue;
      }
      const behind = stream.completeThrough
        ? daysBetween(stream.completeThrough, report.today)
        : null;
      lines.push(
        `${head} complete through ${stream.completeThrough ?? "—"}${behind && behind > 1 ? ` (${behind} days behind)` : ""}, ` +
          `${stream.completeDays} days since ${stream.firstDay}, ${number.format(stream.rows)} rows, ` +
          `${stream.rejected} rejected, last synced ${when(stream.lastSyncedAt)}`,
      );
      const gaps = stream.gaps.slice(0, 5).map(gapText);
      if (gaps.length > 0)
        lines.push(
          `           not complete: ${gaps.join("; ")}${stream.gaps.length > 5 ? `; and ${stream.gaps.length - 5} more` : ""}`,
        );
    }
    for (const snapshot of location.snapshots) {
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
      lines.push(
        `  ${snapshot.stream.padEnd(8)} synced ${when(snapshot.syncedAt)}${state}; ${tables}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

function daysBetweenSeconds(from: string, to: string): string {
  return `${((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1)} s`;
}
