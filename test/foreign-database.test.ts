/** Files that are not pos-sync's: every command that opens a database refuses another program's
 * file in one line, exit 2, and leaves it byte for byte as it was, with nothing beside it. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";

const tempPath = useTempDir();
const sim = useSimulator({ today: simulatorToday(), days: 2, seed: 31, locations: 1 });

const COMMANDS = [["sync"], ["migrate"], ["daemon"], ["status"], ["verify"], ["changes"]];

/** Another program's SQLite file, in the journal mode it chose. */
function foreignDatabase(sql: string, journalMode: "wal" | "delete"): string {
  const path = tempPath();
  const sqlite = new Database(path);
  sqlite.pragma(`journal_mode = ${journalMode}`);
  sqlite.exec(sql);
  sqlite.close();
  return path;
}

describe("another program's file", () => {
  const files = {
    "a SQLite file with a table named as one of pos-sync's": () =>
      foreignDatabase("CREATE TABLE orders (x); INSERT INTO orders VALUES (1)", "delete"),
    "a SQLite file in WAL mode with tables of its own": () =>
      foreignDatabase("CREATE TABLE t (x); CREATE TABLE u (y); CREATE VIEW w AS SELECT 1", "wal"),
    "a text file": () => {
      const path = tempPath();
      writeFileSync(path, "name,total\nLe Petit Zinc,12.50\n");
      return path;
    },
  };

  it.each(Object.entries(files))(
    "%s is refused by every command, and left as it was",
    async (_, make) => {
      const path = make();
      const before = readFileSync(path);
      for (const command of COMMANDS) {
        const run = await runCli(command, simulatorEnv(sim.current, path));
        expect(run.code, `${command}: ${run.stdout}${run.stderr}`).toBe(2);
        const lines = run.stderr.trim().split("\n");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(
            `^pos-sync: ${path} is (another program's SQLite database \\(it holds "[^"]+"|not a SQLite database).*; pos-sync leaves it as it is: give --db or POS_DB_PATH a pos-sync database or a new file$`,
          ),
        );
        expect(readFileSync(path).equals(before), command.join(" ")).toBe(true);
        for (const suffix of ["-wal", "-shm", "-journal"])
          expect(existsSync(`${path}${suffix}`), `${command}: ${suffix}`).toBe(false);
      }
    },
  );

  it("names what it holds", async () => {
    const path = foreignDatabase(
      "CREATE TABLE t (x); CREATE TABLE u (y); CREATE VIEW w AS SELECT 1",
      "wal",
    );
    const run = await runCli(["migrate"], simulatorEnv(sim.current, path));
    expect(run.stderr).toContain('(it holds "t", "u", "w")');
  });
});

describe("an empty SQLite file", () => {
  it("becomes a pos-sync database", async () => {
    const path = foreignDatabase("", "delete");
    const run = await runCli(["sync"], simulatorEnv(sim.current, path));
    expect(run.code, run.stderr).toBe(0);
    expect((await runCli(["status"], simulatorEnv(sim.current, path))).code).toBe(0);
  });
});
