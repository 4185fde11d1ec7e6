/** What pos-sync records about its own work: runs, day windows, and records it had to set aside. */
import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

export const syncRuns = sqliteTable("sync_runs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  started_at: text("started_at").notNull(),
  finished_at: text("finished_at"),
  /** running, succeeded, partial (some windows failed), failed, interrupted. */
  status: text("status").notNull(),
  /** cli, daemon, demo or repair (verify --repair). */
  trigger: text("trigger").notNull(),
  /** JSON: per location and stream, fetched, inserted, updated, unchanged and rejected. */
  stats: text("stats"),
  requests: integer("requests"),
  error: text("error"),
  /** The process that ran it: a run left "running" whose process is gone was interrupted. */
  pid: integer("pid"),
  hostname: text("hostname"),
});

export const syncWindows = sqliteTable(
  "sync_windows",
  {
    location_id: text("location_id").notNull(),
    /** orders or reports (day windows); location and catalog use the day of the snapshot. */
    stream: text("stream").notNull(),
    day: text("day").notNull(),
    /** complete, open (complete so far: the location's today), incomplete, failed, or
     * suspicious (the API suddenly lists far fewer records than are stored: nothing was
     * marked deleted; read again next run). */
    status: text("status").notNull(),
    api_total_count: integer("api_total_count"),
    stored_count: integer("stored_count"),
    attempts: integer("attempts").notNull(),
    last_error: text("last_error"),
    run_id: integer("run_id"),
    synced_at: text("synced_at").notNull(),
    /** When the window was last proved to hold what the API lists, and how: read (a complete
     * read) or audit (the daemon's re-proof against the day's listing). */
    proved_at: text("proved_at"),
    proved_by: text("proved_by"),
  },
  (t) => [
    primaryKey({ columns: [t.location_id, t.stream, t.day] }),
    index("sync_windows_status").on(t.status),
  ],
);

export const rejectedRecords = sqliteTable(
  "rejected_records",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    run_id: integer("run_id"),
    location_id: text("location_id").notNull(),
    stream: text("stream").notNull(),
    /** The window the record came from; null for snapshot streams and reads by id. */
    day: text("day"),
    /** The record's id when it has a usable one. */
    record_id: text("record_id"),
    /** record_id, or a hash of the raw JSON when there is none: one row per bad record. */
    record_key: text("record_key").notNull(),
    reason: text("reason").notNull(),
    raw: text("raw").notNull(),
    rejected_at: text("rejected_at").notNull(),
  },
  (t) => [
    uniqueIndex("rejected_records_record").on(t.location_id, t.stream, t.record_key),
    index("rejected_records_window").on(t.location_id, t.stream, t.day),
  ],
);

/**
 * Who writes the file now: one row at most. A process takes it before writing and refreshes
 * it while it works; a second writer refuses while it is fresh. Readers never look at it.
 */
export const writerLease = sqliteTable(
  "writer_lease",
  {
    id: integer("id").primaryKey(),
    /** A random id of the holding process. */
    holder: text("holder").notNull(),
    pid: integer("pid").notNull(),
    hostname: text("hostname").notNull(),
    /** sync, daemon, demo or migrate. */
    command: text("command").notNull(),
    acquired_at: text("acquired_at").notNull(),
    heartbeat_at: text("heartbeat_at").notNull(),
  },
  (t) => [check("writer_lease_single_row", sql`${t.id} = 1`)],
);

/** What the sync remembers per location beyond its windows (the first day of its history). */
export const syncState = sqliteTable(
  "sync_state",
  {
    location_id: text("location_id").notNull(),
    name: text("name").notNull(),
    value: text("value").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.name] })],
);

/** Upgrades of existing data that a SQL migration cannot do (src/db/upgrades/), each recorded
 * once finished; an interrupted one resumes at the next start of a writing command. */
export const schemaUpgrades = sqliteTable("schema_upgrades", {
  name: text("name").primaryKey(),
  finished_at: text("finished_at").notNull(),
});

/** Stored days found disagreeing with the API after they were proved (the daemon's audit, verify
 * --repair), and what reading them again did. */
export const historyRepairs = sqliteTable(
  "history_repairs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    location_id: text("location_id").notNull(),
    stream: text("stream").notNull(),
    day: text("day").notNull(),
    /** audit (the daemon's rolling re-proof) or verify (verify --repair). */
    found_by: text("found_by").notNull(),
    found_at: text("found_at").notNull(),
    /** The API's count of the day and the records stored for it (live and rejected), found. */
    api_count: integer("api_count"),
    stored_count: integer("stored_count"),
    /** Records listed and not stored, stored with other content, stored and no longer listed;
     * null when the content was not compared (the counts differed already). */
    missing: integer("missing"),
    changed: integer("changed"),
    extra: integer("extra"),
    /** The run that read the day again, and what it did: repaired (rows written), unchanged
     * (proved complete, nothing written: the day is as the proof found it), or failed (the day
     * is read again by the next run). */
    run_id: integer("run_id"),
    outcome: text("outcome").notNull(),
    /** What the reading again wrote: records inserted, updated and marked deleted. */
    inserted: integer("inserted"),
    updated: integer("updated"),
    deleted: integer("deleted"),
  },
  (t) => [index("history_repairs_found").on(t.location_id, t.found_at)],
);
