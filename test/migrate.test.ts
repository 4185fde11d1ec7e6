/** `pos-sync migrate` says what it did: created the file, upgraded it, or found it up to date. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER } from "../src/db/sqlite/open.js";
import { runCli } from "./helpers/cli.js";
import { useTempDir } from "./helpers/db.js";
import { createOlderDatabase } from "./helpers/older-schema.js";

const tempPath = useTempDir();

const journal = JSON.parse(
  readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"),
) as { entries: { tag: string }[] };
const migrations = journal.entries.length;
const lastTags = (count: number) => journal.entries.slice(-count).map((entry) => entry.tag);

async function migrate(dbPath: string): Promise<string> {
  const result = await runCli(["migrate"], { POS_DB_PATH: dbPath });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim();
}

describe("pos-sync migrate", () => {
  it("says it created the database on a new path, and that it is up to date the next time", async () => {
    const dbPath = tempPath();
    expect(await migrate(dbPath)).toBe(
      `created the database ${dbPath} (${migrations} migrations applied)`,
    );
    expect(existsSync(dbPath)).toBe(true);
    expect(await migrate(dbPath)).toBe(
      `${dbPath} is already up to date (${migrations} migrations applied)`,
    );
  });

  it("says how many migrations it applied to an older database", async () => {
    const dbPath = tempPath();
    createOlderDatabase(dbPath, 2);
    expect((await migrate(dbPath)).split("\n")).toEqual([
      `applied 2 schema migrations (${lastTags(2).join(", ")})`,
      `upgraded ${dbPath}: applied 2 migrations (${migrations} in all)`,
    ]);
    expect(await migrate(dbPath)).toBe(
      `${dbPath} is already up to date (${migrations} migrations applied)`,
    );
  });
});
