/** The views come from one source (src/db/sql/views.ts); the migrations that create them follow it. */
import { describe, expect, it } from "vitest";
import { latestViewMigration, VIEW_MIGRATION_FOLDERS } from "../scripts/view-migrations.js";
import { VIEWS, viewStatements } from "../src/db/sql/views.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";

const tempPath = useTempDir();

describe("the view migrations", () => {
  it.each(VIEW_MIGRATION_FOLDERS)(
    "of $name create the views as src/db/sql/views.ts renders them (run `npm run db:views` if not)",
    ({ folder, render }) => {
      const latest = latestViewMigration(folder);
      expect(latest && viewStatements(latest.sql)).toBe(viewStatements(render()));
    },
  );

  it("leave a new SQLite database with exactly the views of the source, each answering", () => {
    const db = openTestDb(tempPath());
    try {
      const names = rows(db, "SELECT name FROM sqlite_master WHERE type = 'view'").map(
        (row) => row.name,
      );
      expect(names.sort()).toEqual(VIEWS.map((view) => view.name).sort());
      for (const { name } of VIEWS) expect(rows(db, `SELECT * FROM ${name}`)).toEqual([]);
    } finally {
      db.close();
    }
  });
});
