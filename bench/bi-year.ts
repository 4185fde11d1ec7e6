/**
 * Benchmark 11, BI at a year: what a dashboard asks of the views once a chain has a year of
 * history. Benchmark 10's year (chain-year.ts), synced into SQLite and PostgreSQL, is read on each
 * database as a BI tool filters every `v_` view: a week, a week of one location, a month, and a
 * dashboard's aggregation (a week grouped by day and location), and `v_orders` joined to
 * `order_items` for a week, on PostgreSQL with the BI role's settings. A week must not cost the
 * years: each week's read is held to 100 ms.
 * Beside them, the same week's rows read from the tables that store them: what such rows cost
 * without a view.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { biRoleSettings } from "../scripts/bi-role-settings.js";
import { addDays } from "../src/clock/days.js";
import { internalSchemaOf } from "../src/db/pg/schemas.js";
import { BI_VIEWS } from "../src/db/sql/bi-views.js";
import { dec, int, log, now, seconds } from "./lib.js";

/** A week's read, at most (the target). */
const WEEK_TARGET_MS = 100;

export interface BiQuery {
  /** The view, or the join, it reads. */
  relation: string;
  /** week, week of one location, month, dashboard; stored (a week's rows as stored). */
  kind: string;
  sql: string;
  /** Where PostgreSQL's text differs (the stored tables, which have no typed twins there). */
  postgresSql?: string;
  params: string[];
}

export interface BiTiming extends BiQuery {
  rows: number;
  sqliteMs: number;
  postgresMs: number;
}

/** The reads a BI tool makes of each view, for the week and month ending `lastDay`. */
function biQueries(lastDay: string, locationId: string): BiQuery[] {
  const week = [addDays(lastDay, -6), lastDay];
  const month = [addDays(lastDay, -29), lastDay];
  const queries: BiQuery[] = [];
  for (const view of BI_VIEWS) {
    const names = new Set(view.columns.map((column) => column.name));
    if (!names.has("business_date")) continue;
    const days = "business_date BETWEEN ? AND ?";
    const relation = view.name;
    queries.push({
      relation,
      kind: "week",
      sql: `SELECT * FROM ${relation} WHERE ${days}`,
      params: week,
    });
    if (names.has("location_id")) {
      queries.push({
        relation,
        kind: "week of one location",
        sql: `SELECT * FROM ${relation} WHERE ${days} AND location_id = ?`,
        params: [...week, locationId],
      });
    }
    queries.push({
      relation,
      kind: "month",
      sql: `SELECT * FROM ${relation} WHERE ${days}`,
      params: month,
    });
    const groups = names.has("location_id") ? "business_date, location_id" : "business_date";
    queries.push({
      relation,
      kind: "dashboard",
      sql: `SELECT ${groups}, COUNT(*) AS n FROM ${relation} WHERE ${days} GROUP BY ${groups}`,
      params: week,
    });
  }
  queries.push({
    relation: "v_orders ⋈ order_items",
    kind: "week",
    sql: `SELECT o.order_id, o.business_date, i.* FROM v_orders o
      JOIN order_items i ON i.order_id = o.order_id WHERE o.business_date BETWEEN ? AND ?`,
    params: week,
  });
  // A week's orders, and their lines, as stored (every column), by the day's index.
  const stored = [
    { relation: "order_rows", columns: "o.*", join: "" },
    {
      relation: "order_rows ⋈ order_item_rows",
      columns: "o.id, c.*",
      join: "JOIN order_item_rows c ON c.order_key = o.key",
    },
  ];
  for (const { relation, columns, join } of stored) {
    const read = (day: string) =>
      `SELECT ${columns} FROM order_rows o ${join} WHERE o.${day} BETWEEN ? AND ?`;
    queries.push({
      relation,
      kind: "stored",
      sql: read("business_date_typed"),
      postgresSql: read("business_date"),
      params: week,
    });
  }
  return queries;
}

/** `?` placeholders as PostgreSQL numbers them. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** The median of a read's times, in ms; a read over two seconds is timed once. */
async function medianMs(read: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = now();
    await read();
    times.push(seconds(start) * 1000);
    if (times[0]! > 2_000) break;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Times every query on both databases; the SQLite file read-only, as a BI tool opens it. */
async function timeBiQueries(
  sqlitePath: string,
  postgres: { url: string; schema: string },
  queries: readonly BiQuery[],
): Promise<BiTiming[]> {
  const sqlite = new Database(sqlitePath, { readonly: true });
  const client = new pg.Client({ connectionString: postgres.url });
  try {
    await client.connect();
    await client.query(
      `SET search_path = ${postgres.schema}, ${internalSchemaOf(postgres.schema)}`,
    );
    // The statistics autovacuum gathers in time after a backfill: a BI tool meets the planner's
    // steady state, not the minutes after a bulk load.
    await client.query("ANALYZE");
    // As the BI role of docs/scaling.md reads: a join of views planned as one query.
    for (const setting of biRoleSettings()) await client.query(setting);
    const timings: BiTiming[] = [];
    for (const query of queries) {
      const statement = sqlite.prepare(query.sql);
      const postgresSql = numbered(query.postgresSql ?? query.sql);
      let rows = 0;
      const sqliteMs = await medianMs(() => {
        rows = statement.all(...query.params).length;
      });
      const postgresMs = await medianMs(() => client.query(postgresSql, query.params));
      timings.push({ ...query, rows, sqliteMs, postgresMs });
      log(
        `    ${query.relation}, ${query.kind}: SQLite ${dec(sqliteMs)} ms, PostgreSQL ${dec(postgresMs)} ms (${int(rows)} rows)`,
      );
    }
    return timings;
  } finally {
    sqlite.close();
    await client.end();
  }
}

/** The weeks over the target, on each database. */
export function biTargets(timings: readonly BiTiming[]): string {
  const weeks = timings.filter((t) => t.kind.startsWith("week"));
  const over = (ms: (t: BiTiming) => number) => weeks.filter((t) => ms(t) > WEEK_TARGET_MS).length;
  return `weeks over ${WEEK_TARGET_MS} ms: SQLite ${over((t) => t.sqliteMs)} of ${weeks.length}, PostgreSQL ${over((t) => t.postgresMs)} of ${weeks.length}`;
}

/** The BI reads of a year already synced into both databases: the week and month end on the
 * last day every location has complete, the one location is the first, from the data. */
export async function readBiYear(
  sqlitePath: string,
  postgres: { url: string; schema: string },
): Promise<BiTiming[]> {
  const db = new Database(sqlitePath, { readonly: true });
  const { lastDay, locationId } = db
    .prepare(
      `SELECT MIN(last_day) AS lastDay, MIN(location_id) AS locationId
       FROM (SELECT location_id, MAX(day) AS last_day FROM sync_windows
             WHERE stream = 'orders' AND status = 'complete' GROUP BY location_id)`,
    )
    .get() as { lastDay: string; locationId: string };
  db.close();
  log(`    BI reads: the week and month end ${lastDay}`);
  const timings = await timeBiQueries(sqlitePath, postgres, biQueries(lastDay, locationId));
  log(`    BI targets: ${biTargets(timings)}`);
  return timings;
}
