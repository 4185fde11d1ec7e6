/**
 * Every SQL example an analyst may copy (the ```sql blocks of the README and of docs/, and the
 * demo's queries) runs unchanged on both databases, as a BI tool would run it: on the SQLite file
 * opened read-only by a plain SQLite client, and on PostgreSQL through a connection whose
 * search_path is the schema. Each must answer at least one row on data like the demo's (two
 * locations, days on both sides of a month's start, orders changed after the fact, a few records
 * that broke the spec), so that an example that silently asks for nothing fails too.
 *
 * A block fenced ```sql sqlite or ```sql postgres is for that database alone: the one place the
 * two need different SQL (reading JSON) says so in the guide and gives both spellings.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_QUERIES } from "../src/demo/example-queries.js";
import { type Simulator, startSimulator } from "../src/simulator/server.js";
import {
  DESTINATION_KINDS,
  type DestinationKind,
  type TestDestination,
  useDestinations,
} from "./helpers/destinations.js";
import { SMALL_DATASET } from "./helpers/simulator.js";
import { syncEach } from "./helpers/sync.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const PAGES = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

interface Example {
  /** The page or module it is written in. */
  source: string;
  /** Its first comment line (or its first line): what the test is named after. */
  name: string;
  sql: string;
  /** The one database a marked block is for; undefined: both. */
  only: DestinationKind | undefined;
}

const MARKERS: Record<string, DestinationKind | undefined> = {
  "": undefined,
  sqlite: "sqlite",
  postgres: "postgres",
};

/** Blocks whose info string after `sql` is no marker the test knows: they would run nowhere. */
const unknownMarkers: string[] = [];

/** A block's statements: split at a `;` that ends a line, each with the comments above it. */
function statements(source: string, block: string, only: DestinationKind | undefined): Example[] {
  return block
    .split(/;[ \t]*$/m)
    .map((text) => text.trim())
    .filter((text) => text.replace(/^\s*--.*$/gm, "").trim() !== "")
    .map((sql) => {
      const comment = /^\s*--\s*(.*)$/m.exec(sql)?.[1];
      const firstLine = sql.split("\n")[0] ?? sql;
      return { source, name: comment ?? firstLine, sql, only };
    });
}

function pageExamples(page: string): Example[] {
  const text = readFileSync(join(root, page), "utf8");
  return [...text.matchAll(/^```sql\b([^\n]*)\n([\s\S]*?)^```$/gm)].flatMap((match) => {
    const marker = (match[1] ?? "").trim();
    if (!(marker in MARKERS)) {
      unknownMarkers.push(`${page}: \`\`\`sql ${marker}`);
      return [];
    }
    return statements(page, match[2] ?? "", MARKERS[marker]);
  });
}

const EXAMPLES: Example[] = [
  ...PAGES.flatMap(pageExamples),
  ...EXAMPLE_QUERIES.map((query) => ({
    source: "src/demo/example-queries.ts",
    name: query.title,
    sql: query.sql,
    only: undefined,
  })),
];

/** A reader as an analyst's tool connects: nothing of pos-sync's own connection setup. */
interface Reader {
  rows(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

function sqliteReader(path: string): Reader {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  return {
    rows: async (sql) => db.prepare(sql).all() as Record<string, unknown>[],
    close: async () => {
      db.close();
    },
  };
}

async function postgresReader(url: string, schema: string): Promise<Reader> {
  // Read-only transactions: an example that wrote would fail here rather than change the data
  // the next examples read.
  const client = new pg.Client({
    connectionString: url,
    options: `-c search_path=${schema} -c default_transaction_read_only=on`,
  });
  await client.connect();
  return {
    rows: async (sql) => (await client.query(sql)).rows,
    close: () => client.end(),
  };
}

function openReader(kind: DestinationKind, into: TestDestination): Promise<Reader> | Reader {
  const { POS_DB_PATH, POS_DB_URL, POS_DB_SCHEMA } = into.env;
  if (kind === "sqlite" && POS_DB_PATH) return sqliteReader(POS_DB_PATH);
  if (kind === "postgres" && POS_DB_URL && POS_DB_SCHEMA)
    return postgresReader(POS_DB_URL, POS_DB_SCHEMA);
  throw new Error(`no way to reach the ${kind} destination: ${Object.keys(into.env).join(", ")}`);
}

/** An example "per location" answers for each location, and its "top N" holds N rows of each
 * (the simulator's catalog has more than N products), not the top N of the whole chain. */
function expectEveryLocation(example: Example, rows: Record<string, unknown>[]): void {
  const perLocation = new Map<string, number>();
  for (const row of rows) {
    const name = String(row.location_name);
    perLocation.set(name, (perLocation.get(name) ?? 0) + 1);
  }
  expect([...perLocation.keys()].sort(), example.sql).toEqual(locationNames);
  const top = /\btop (\d+)\b/i.exec(example.name)?.[1];
  if (top !== undefined)
    for (const [name, count] of perLocation) expect(count, name).toBe(Number(top));
}

const destinations = useDestinations();
const readers = new Map<DestinationKind, Reader>();
let locationNames: string[] = [];
let simulator: Simulator | undefined;

beforeAll(async () => {
  // Days on both sides of the 1st, so that "the latest month" and "the month before" both hold
  // days; four times the default change rate, so that the orders the second run reads again
  // carry cancellations, voids and discounts made after the first; and a few malformed records,
  // set aside, so that some reports list orders that are not stored.
  simulator = await startSimulator({ ...SMALL_DATASET, today: "2026-03-05", changeRate: 4 });
  simulator.faults.set({ malformedRate: 0.01 });
  const stores = await Promise.all(
    DESTINATION_KINDS.map(async (kind) => ({ kind, into: await destinations.fresh(kind) })),
  );
  const syncAll = (running: Simulator) =>
    syncEach(
      running,
      stores.map(({ into }) => into),
    );
  // Order history needs two runs: the first stores each order, the second sees what changed.
  await syncAll(simulator);
  simulator.dataset.advanceDay();
  simulator.dataset.applyLateUpdates(8, 3);
  await syncAll(simulator);
  for (const { kind, into } of stores) readers.set(kind, await openReader(kind, into));
  const locations = await readers.get("sqlite")?.rows("SELECT name FROM locations ORDER BY name");
  locationNames = (locations ?? []).map((row) => String(row.name)).sort();
  expect(locationNames).toHaveLength(simulator.dataset.locations.length);
}, 120_000);

afterAll(async () => {
  for (const reader of readers.values()) await reader.close();
  await simulator?.close();
});

describe("the SQL examples", () => {
  it("are found in the guides and the demo, each block marked for both databases or one", () => {
    expect(unknownMarkers).toEqual([]);
    expect(EXAMPLES.filter((e) => e.source === "docs/database.md").length).toBeGreaterThan(10);
    expect(EXAMPLES.filter((e) => e.source === "docs/commands.md").length).toBeGreaterThan(0);
    expect(EXAMPLES.filter((e) => e.source.startsWith("src/")).length).toBe(EXAMPLE_QUERIES.length);
    // An example given for one database alone comes in the other's spelling too.
    for (const source of new Set(EXAMPLES.map((e) => e.source))) {
      const count = (kind: DestinationKind) =>
        EXAMPLES.filter((e) => e.source === source && e.only === kind).length;
      expect(count("sqlite"), source).toBe(count("postgres"));
    }
  });
});

for (const kind of DESTINATION_KINDS) {
  describe(`on ${kind}`, () => {
    for (const example of EXAMPLES.filter((e) => e.only === undefined || e.only === kind)) {
      it(`${example.source}: ${example.name}`, async () => {
        const reader = readers.get(kind);
        if (!reader) throw new Error(`the ${kind} database was not synced`);
        const rows = await reader.rows(example.sql);
        expect(rows.length, example.sql).toBeGreaterThan(0);
        if (/per location/i.test(example.name)) expectEveryLocation(example, rows);
      });
    }
  });
}
