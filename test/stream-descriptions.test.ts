/** The stream descriptions: each is the one place that knows its stream, and a new catalog list
 * is one description plus its table. */
import { getTableConfig, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { type Category, categorySchema } from "../src/api/schemas.js";
import { normalizeCategory } from "../src/db/normalize/catalog.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import { ALL_STATUS_STREAMS, collectStatus } from "../src/read-models/status.js";
import {
  CATALOG_LISTS,
  type CatalogListDescription,
  DAY_STREAM_DESCRIPTIONS,
  DEVICES,
  withoutChildren,
} from "../src/streams/index.js";
import { DAY_STREAMS } from "../src/vocabulary.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";
import { simulatorNow, syncOnce } from "./helpers/sync.js";

const tempPath = useTempDir();
const sim = useSimulator();

const ALL = [...DAY_STREAM_DESCRIPTIONS, ...CATALOG_LISTS, DEVICES];

function tablePrimaryKey(description: (typeof ALL)[number]): string[] {
  const config = getTableConfig(description.table);
  const composite = config.primaryKeys[0]?.columns.map((column) => column.name);
  return composite ?? config.columns.filter((c) => c.primary).map((c) => c.name);
}

describe("the stream descriptions", () => {
  it("key their tables as the writers find records: a day stream's by a unique id (its arrays' rows by an integer key), a list's by location and id", () => {
    for (const description of DAY_STREAM_DESCRIPTIONS) {
      expect(tablePrimaryKey(description), description.name).toEqual(["key"]);
      const id = getTableConfig(description.table).columns.find((c) => c.name === "id");
      expect(id?.isUnique, description.name).toBe(true);
    }
    for (const description of [...CATALOG_LISTS, DEVICES])
      expect(tablePrimaryKey(description), description.name).toEqual(["location_id", "id"]);
  });

  it("name each stream once, the day streams in the vocabulary's order", () => {
    const names = ALL.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect(DAY_STREAM_DESCRIPTIONS.map((d) => d.name)).toEqual([...DAY_STREAMS]);
  });

  it("tie every child table by a foreign key to the parent's table or another child of it", () => {
    for (const description of ALL) {
      const parent = getTableConfig(description.table).name;
      const family = [parent, ...description.childTables.map((t) => getTableConfig(t).name)];
      for (const child of description.childTables) {
        // Besides the catalog ids the rows name, kept apart (api_ids).
        const targets = getTableConfig(child)
          .foreignKeys.map((key) => getTableConfig(key.reference().foreignTable).name)
          .filter((name) => name !== "api_ids");
        expect(targets.length, getTableConfig(child).name).toBeGreaterThan(0);
        for (const target of targets) expect(family, getTableConfig(child).name).toContain(target);
      }
    }
  });
});

/** A catalog list that exists only in this test: the categories again, into a table of its own. */
const categoryCopies = sqliteTable(
  "category_copies",
  {
    location_id: text("location_id").notNull(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    position: integer("position").notNull(),
    content_hash: integer("content_hash"),
    synced_at: text("synced_at").notNull(),
    deleted_at: text("deleted_at"),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.id] })],
);

const CATEGORY_COPIES: CatalogListDescription<Category> = {
  name: "categoryCopies",
  listing: { operation: "listCategories", path: "/v1/catalog/categories/" },
  schema: categorySchema,
  table: categoryCopies,
  childTables: [],
  toRows: withoutChildren(normalizeCategory),
};

describe("a sixth catalog list", () => {
  it("is synced, counted and shown with nothing but its description and its table", async () => {
    const db = openTestDb(tempPath());
    db.sqlite.exec(`CREATE TABLE category_copies (
      location_id TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, position INTEGER NOT NULL,
      content_hash INTEGER, synced_at TEXT NOT NULL, deleted_at TEXT,
      PRIMARY KEY (location_id, id))`);
    const { result } = await syncOnce(sim.current, db, {
      streams: ["location", "catalog"],
      catalogLists: [...CATALOG_LISTS, CATEGORY_COPIES],
    });
    expect(result.status).toBe("succeeded");
    expect(
      rows(db, "SELECT location_id, id, name, position FROM category_copies ORDER BY 1, 2"),
    ).toEqual(rows(db, "SELECT location_id, id, name, position FROM categories ORDER BY 1, 2"));
    expect(scalar(db, "SELECT COUNT(*) FROM category_copies")).toBeGreaterThan(0);
    const catalog = result.stats.totals("catalog");
    expect(catalog.fetched).toBe(
      scalar(
        db,
        `SELECT (SELECT COUNT(*) FROM products) + (SELECT COUNT(*) FROM categories)
              + (SELECT COUNT(*) FROM modifiers) + (SELECT COUNT(*) FROM payment_methods)
              + (SELECT COUNT(*) FROM taxes) + (SELECT COUNT(*) FROM category_copies)`,
      ),
    );

    const status = await collectStatus(
      new SqliteDestination(db).reads,
      simulatorNow(sim.current)(),
      {
        streams: {
          ...ALL_STATUS_STREAMS,
          snapshots: [
            { stream: "location", lists: [DEVICES] },
            { stream: "catalog", lists: [...CATALOG_LISTS, CATEGORY_COPIES] },
          ],
        },
      },
    );
    for (const location of status.locations) {
      const catalogStatus = location.snapshots.find((s) => s.stream === "catalog");
      expect(catalogStatus?.tables.category_copies?.live).toBe(
        catalogStatus?.tables.categories?.live,
      );
    }

    // The list is a snapshot like the others: a category gone from the API is marked deleted.
    const [gone] = rows(db, "SELECT location_id, id FROM category_copies LIMIT 1");
    db.sqlite
      .prepare("UPDATE category_copies SET content_hash = 0 WHERE location_id = ? AND id = ?")
      .run(gone.location_id, gone.id);
    const again = await syncOnce(sim.current, db, {
      streams: ["catalog"],
      catalogLists: [...CATALOG_LISTS, CATEGORY_COPIES],
    });
    expect(again.result.stats.totals("catalog").updated).toBe(1);
    db.close();
  });
});
