/**
 * Group commit: writes share one transaction for a short while and commit together; a write
 * that fails takes the group with it, and a group SQLite refuses to commit is rolled back whole
 * and said so to the next write.
 * Two connections to a real file: what one commits, the other sees.
 */
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { GroupCommit } from "../src/db/sqlite/group-commit.js";
import { useTempDir } from "./helpers/db.js";
import { until } from "./helpers/wait.js";

const tempPath = useTempDir();
const open: Database.Database[] = [];

function files(): { writer: Database.Database; reader: Database.Database } {
  const path = tempPath();
  const writer = new Database(path);
  writer.pragma("journal_mode = WAL");
  writer.exec(`
    CREATE TABLE parents (id INTEGER PRIMARY KEY);
    CREATE TABLE children (id INTEGER PRIMARY KEY,
      parent_id INTEGER REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED);
    PRAGMA foreign_keys = ON;`);
  const reader = new Database(path, { readonly: true });
  open.push(writer, reader);
  return { writer, reader };
}

const count = (db: Database.Database, table: string) =>
  db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get();

afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

describe("a group of writes", () => {
  it("commits together once its window has passed, and not before", async () => {
    const { writer, reader } = files();
    const group = new GroupCommit(writer, 100, () => {});
    const insert = writer.prepare("INSERT INTO parents (id) VALUES (?)");
    group.write(() => insert.run(1));
    group.write(() => insert.run(2));
    expect(count(reader, "parents")).toBe(0);
    await until(() => count(reader, "parents") === 2, "the group to commit");
    expect(writer.inTransaction).toBe(false);
  });

  it("commits at once when flushed", () => {
    const { writer, reader } = files();
    const group = new GroupCommit(writer, 60_000, () => {});
    group.write(() => writer.prepare("INSERT INTO parents (id) VALUES (1)").run());
    group.flush();
    expect(count(reader, "parents")).toBe(1);
  });

  it("is rolled back whole with a write that fails, says so, and the next write opens another", () => {
    const { writer, reader } = files();
    const lost: unknown[] = [];
    const group = new GroupCommit(writer, 60_000, (error) => lost.push(error));
    const insert = writer.prepare("INSERT INTO parents (id) VALUES (?)");
    const failure = new Error("a bad page");
    group.write(() => insert.run(1));
    expect(() =>
      group.write(() => {
        insert.run(2);
        throw failure;
      }),
    ).toThrow("a bad page");
    expect(lost).toEqual([failure]);
    // The write lock goes with the group, not at the end of its window.
    expect(writer.inTransaction).toBe(false);
    group.write(() => insert.run(3));
    group.flush();
    expect(reader.prepare("SELECT id FROM parents ORDER BY id").pluck().all()).toEqual([3]);
  });

  it("is rolled back whole with a statement that fails, its own changes and the others'", () => {
    const { writer, reader } = files();
    const lost: unknown[] = [];
    const group = new GroupCommit(writer, 60_000, (error) => lost.push(error));
    const insert = writer.prepare("INSERT INTO parents (id) VALUES (?)");
    group.write(() => insert.run(1));
    expect(() => group.write(() => insert.run(1))).toThrow(/UNIQUE/);
    expect(lost).toHaveLength(1);
    expect(writer.inTransaction).toBe(false);
    expect(count(reader, "parents")).toBe(0);
    expect(count(writer, "parents")).toBe(0);
  });

  it("is rolled back whole when its commit fails, and the next write is told", async () => {
    const { writer, reader } = files();
    const lost: string[] = [];
    const group = new GroupCommit(writer, 50, () => lost.push("lost"));
    writer.prepare("INSERT INTO parents (id) VALUES (1)").run();
    group.write(() => writer.prepare("INSERT INTO parents (id) VALUES (2)").run());
    // An orphan, checked only at COMMIT: the commit on the timer fails.
    group.write(() => writer.prepare("INSERT INTO children (id, parent_id) VALUES (1, 99)").run());
    await until(() => lost.length > 0, "the commit to fail");
    expect(lost).toEqual(["lost"]);
    expect(writer.inTransaction).toBe(false);
    expect(count(reader, "parents")).toBe(1);
    expect(count(reader, "children")).toBe(0);
    expect(() => group.write(() => undefined)).toThrow(/FOREIGN KEY/);
    // Told once; the writes after it work again.
    group.write(() => writer.prepare("INSERT INTO parents (id) VALUES (3)").run());
    group.flush();
    expect(reader.prepare("SELECT id FROM parents ORDER BY id").pluck().all()).toEqual([1, 3]);
  });
});
