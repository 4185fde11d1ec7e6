/**
 * Files the user names for a command to write (output-file.ts): the database in use, its
 * companions, the configuration file in use, any SQLite file, anything but a regular file, and a
 * file of another kind are refused in one line, exit 2, and left byte for byte as they were;
 * by the rule itself, and by each command that writes such a file.
 */
import { linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type FilesInUse,
  refuseToReplace,
  SETTINGS_FILE,
  STATUS_PAGE,
  writeOutputFile,
} from "../src/output-file.js";
import { runCli } from "./helpers/cli.js";
import { useTempDir } from "./helpers/db.js";

const tempPath = useTempDir();

/** A database in use, with a WAL and a lock file beside it, and a settings file. */
/** A database in WAL mode, with a table of its own unless pos-sync is to make it its own (a
 * command refuses another program's). */
function filesInUse(content: "a table" | "nothing" = "a table"): Required<FilesInUse> {
  const database = `${tempPath()}.sqlite`;
  const sqlite = new Database(database);
  sqlite.pragma("journal_mode = WAL");
  if (content === "a table") sqlite.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)");
  sqlite.close();
  writeFileSync(`${database}.lock`, "");
  const configFile = `${tempPath()}.json`;
  writeFileSync(configFile, '{ "lookbackDays": 2 }\n');
  return { database, configFile };
}

function refusal(path: string, output = STATUS_PAGE, inUse: FilesInUse = {}): string {
  try {
    refuseToReplace(path, output, inUse);
    return "accepted";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("the rule for a file a command writes", () => {
  it("refuses the database in use under any of its names, and each of its companions", () => {
    const inUse = filesInUse();
    const { database } = inUse;
    const hardLink = `${tempPath()}.html`;
    linkSync(database, hardLink);
    for (const name of [database, relative(process.cwd(), database), hardLink])
      expect(refusal(name, STATUS_PAGE, inUse)).toMatch(/: it is the database in use; choose/);
    for (const suffix of ["-wal", "-shm", "-journal", ".lock"])
      expect(refusal(`${database}${suffix}`, STATUS_PAGE, inUse)).toContain(
        `: it is the ${suffix} file of the database in use`,
      );
  });

  it("refuses any SQLite database, its write-ahead log and companions, even not in use", () => {
    const { database } = filesInUse();
    expect(refusal(database)).toMatch(/: it is a SQLite database;/);
    expect(refusal(`${database}-shm`)).toContain(
      `: it is the -shm file of the SQLite database ${database};`,
    );
    const copiedLog = `${tempPath()}.html`;
    writeFileSync(copiedLog, Buffer.from([0x37, 0x7f, 0x06, 0x82, 0, 0, 0, 0]));
    expect(refusal(copiedLog)).toMatch(/: it is a SQLite write-ahead log;/);
  });

  it("refuses the configuration file in use, but lets settings update it", () => {
    const inUse = filesInUse();
    expect(refusal(inUse.configFile, STATUS_PAGE, inUse)).toMatch(
      /: it is the configuration file in use;/,
    );
    expect(refusal(inUse.configFile, SETTINGS_FILE, inUse)).toBe("accepted");
  });

  it("refuses a directory, a device and a file of another kind; takes a new, empty or same-kind file", () => {
    const directory = tempPath();
    mkdirSync(directory);
    expect(refusal(directory)).toMatch(/: it is a directory;/);
    expect(refusal("/dev/null")).toMatch(/: it is not a regular file;/);
    const notes = `${tempPath()}.txt`;
    writeFileSync(notes, "quarterly numbers\n");
    expect(refusal(notes)).toMatch(/: it is not an HTML page;/);
    expect(refusal(notes, SETTINGS_FILE)).toMatch(/: it is not a JSON settings file;/);
    const page = `${tempPath()}.html`;
    writeFileSync(page, "\n<!DOCTYPE html>\n<html><body>old</body></html>");
    expect(refusal(page)).toBe("accepted");
    expect(refusal(page, SETTINGS_FILE)).toMatch(/: it is not a JSON settings file;/);
    const empty = `${tempPath()}.html`;
    writeFileSync(empty, "");
    expect(refusal(empty)).toBe("accepted");
    expect(refusal(`${tempPath()}.html`)).toBe("accepted");
  });

  it("writes whole over a page of its own kind, and leaves a refused file as it was", () => {
    const page = `${tempPath()}.html`;
    writeOutputFile(page, "<!doctype html><p>one</p>", STATUS_PAGE, {});
    writeOutputFile(page, "<!doctype html><p>two</p>", STATUS_PAGE, {});
    expect(readFileSync(page, "utf8")).toBe("<!doctype html><p>two</p>");
    const { database } = filesInUse();
    const before = readFileSync(database);
    expect(() => writeOutputFile(database, "<!doctype html>", STATUS_PAGE, {})).toThrow(
      /SQLite database/,
    );
    expect(readFileSync(database).equals(before)).toBe(true);
  });
});

describe("each command that writes a file the user names", () => {
  let inUse: Required<FilesInUse>;
  beforeAll(async () => {
    inUse = filesInUse("nothing");
    const migrated = await runCli(["migrate"], { POS_DB_PATH: inUse.database });
    expect(migrated.code, migrated.stderr).toBe(0);
  });

  /** Each protected file, byte for byte after the command as before it. */
  function snapshot(): Map<string, Buffer> {
    return new Map(
      [inUse.database, inUse.configFile, `${inUse.database}.lock`].map((f) => [f, readFileSync(f)]),
    );
  }

  it("status --html refuses the database, its WAL and the --config file, and changes none", async () => {
    const before = snapshot();
    const env = { POS_DB_PATH: inUse.database };
    const targets = [inUse.database, `${inUse.database}-wal`, inUse.configFile];
    for (const target of targets) {
      const result = await runCli(["status", "--config", inUse.configFile, "--html", target], env);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(
        new RegExp(`^pos-sync: will not write the status page to ${target}: it is the .+\\n$`),
      );
    }
    expect(snapshot()).toEqual(before);
    // The database still answers.
    expect((await runCli(["status"], env)).code).toBe(0);
  });

  it("probe --write-config refuses the database before it sends a request", async () => {
    const before = snapshot();
    // Nothing listens on port 9: a probe that sent a request would fail otherwise.
    const env = {
      POS_API_URL: "http://127.0.0.1:9",
      POS_API_KEY: "pos_test_key",
      POS_DB_PATH: inUse.database,
    };
    const result = await runCli(["probe", "--write-config", inUse.database], env);
    expect([result.code, result.stderr]).toEqual([
      2,
      `pos-sync: will not write the settings to ${inUse.database}: it is the database in use; choose another file\n`,
    ]);
    expect(snapshot()).toEqual(before);
  });

  it("demo --db refuses a companion file of a SQLite database", async () => {
    const before = snapshot();
    const result = await runCli(["demo", "--db", `${inUse.database}-wal`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `pos-sync: will not use ${inUse.database}-wal as the demo's database: it is the -wal file ` +
        `of the SQLite database ${inUse.database}; choose another --db\n`,
    );
    expect(snapshot()).toEqual(before);
  });
});
