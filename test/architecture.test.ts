/** The layers of src/, as imports show them: no cycle, and no arrow from a lower layer up. */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

interface Module {
  /** Path under src/, e.g. "sync/run.ts". */
  name: string;
  text: string;
  /** Modules of src/ it imports (type-only imports included: they are arrows too). */
  imports: string[];
  /** Packages it imports. */
  packages: string[];
}

function readModules(): Map<string, Module> {
  const modules = new Map<string, Module>();
  for (const path of sourceFiles(SRC)) {
    const text = readFileSync(path, "utf8");
    const specifiers = [...text.matchAll(/(?:import|export)[^"';]*?from\s+"([^"]+)"/g)].map(
      (match) => match[1] as string,
    );
    const name = relative(SRC, path);
    modules.set(name, {
      name,
      text,
      imports: specifiers
        .filter((s) => s.startsWith("."))
        .map((s) => relative(SRC, resolve(dirname(path), s)).replace(/\.js$/, ".ts")),
      packages: specifiers.filter((s) => !s.startsWith(".")),
    });
  }
  return modules;
}

const modules = readModules();
const folder = (name: string) => (name.includes("/") ? (name.split("/")[0] as string) : name);

function importersOf(from: string, to: readonly string[]): string[] {
  return [...modules.values()]
    .filter((m) => folder(m.name) === from)
    .flatMap((m) => m.imports.filter((i) => to.includes(folder(i))).map((i) => `${m.name} → ${i}`));
}

describe("the layers of src/", () => {
  it("have no import cycle", () => {
    const cycles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (name: string, path: string[]) => {
      if (state.get(name) === "done") return;
      if (state.get(name) === "visiting") {
        cycles.push([...path.slice(path.indexOf(name)), name].join(" → "));
        return;
      }
      state.set(name, "visiting");
      for (const next of modules.get(name)?.imports ?? []) visit(next, [...path, name]);
      state.set(name, "done");
    };
    for (const name of modules.keys()) visit(name, []);
    expect(cycles).toEqual([]);
  });

  it("keep the vocabulary at the bottom", () => {
    expect(modules.get("vocabulary.ts")?.imports).toEqual([]);
  });

  it("keep storage below the engine, the streams and everything that uses them", () => {
    const above = [
      "sync",
      "streams",
      "read-models",
      "ui",
      "runner",
      "commands",
      "daemon",
      "demo",
      "probe",
    ];
    expect(importersOf("db", above)).toEqual([]);
    expect(importersOf("api", ["db", ...above])).toEqual([]);
    expect(importersOf("streams", ["sync", "read-models", "ui", "runner", "commands"])).toEqual([]);
  });

  it("keep the probe on the API alone: it reads no database and runs no sync", () => {
    const probe = [...modules.values()].filter((m) => folder(m.name) === "probe");
    expect(probe.length).toBeGreaterThan(5);
    const elsewhere = [
      "db",
      "sync",
      "streams",
      "runner",
      "daemon",
      "read-models",
      "ui",
      "commands",
    ];
    expect(importersOf("probe", elsewhere)).toEqual([]);
  });

  it("keep the engine free of SQL and of database handles", () => {
    const engine = [...modules.values()].filter((m) => folder(m.name) === "sync");
    expect(engine.length).toBeGreaterThan(5);
    for (const module of engine) {
      expect(module.packages, module.name).not.toContain("better-sqlite3");
      expect(
        module.packages.filter((p) => p.startsWith("drizzle")),
        module.name,
      ).toEqual([]);
      expect(module.text, module.name).not.toMatch(
        /\b(SELECT|INSERT INTO|DELETE FROM|UPDATE \S+ SET)\b/,
      );
      const handles = module.imports.filter((i) =>
        ["db/open.ts", "db/store.ts", "db/sqlite-destination.ts", "db/checkpoints.ts"].includes(i),
      );
      expect(handles, module.name).toEqual([]);
    }
    expect(importersOf("sync", ["read-models", "ui", "runner", "commands", "daemon"])).toEqual([]);
  });

  it("keep the folders of src/db in layers, and SQLite's files apart from PostgreSQL's", () => {
    // A file of a folder of src/db (not db/'s own files, which sit above them all) → its folder.
    const dbFolder = (name: string) => {
      const parts = name.split("/");
      return parts[0] === "db" && parts.length > 2 ? parts[1] : undefined;
    };
    const arrows = new Set<string>();
    const sqliteToPg: string[] = [];
    for (const module of modules.values()) {
      if (folder(module.name) !== "db") continue;
      for (const target of module.imports) {
        const from = dbFolder(module.name);
        const to = dbFolder(target);
        if (from && to && from !== to) arrows.add(`${from} → ${to}`);
        if (from !== "pg" && to === "pg") sqliteToPg.push(`${module.name} → ${target}`);
      }
    }
    const mutual = [...arrows].filter((arrow) => {
      const [from, to] = arrow.split(" → ");
      return arrows.has(`${to} → ${from}`);
    });
    expect(arrows.size).toBeGreaterThan(3);
    expect(mutual).toEqual([]);
    expect(sqliteToPg).toEqual([]);
  });

  it("name each method of the storage port in one file of src/runner at most", () => {
    const port = modules.get("db/destination.ts")?.text ?? "";
    // `close` is every port's and thread's word too: the port's own is told apart by nothing.
    const methods = [...port.matchAll(/^ {2}(\w+)\??\(/gm)]
      .map((match) => match[1] as string)
      .filter((method) => method !== "close");
    expect(methods).toContain("recordWindow");
    const runner = [...modules.values()].filter((m) => folder(m.name) === "runner");
    const named = methods
      .map((method) => ({
        method,
        files: runner
          .filter((m) => new RegExp(`\\.${method}\\(|"${method}"`).test(m.text))
          .map((m) => m.name),
      }))
      .filter(({ files }) => files.length > 1);
    expect(named).toEqual([]);
  });

  it("read the database only through the destination in read models, the UI and the demo", () => {
    for (const module of modules.values()) {
      if (!["read-models", "ui", "demo"].includes(folder(module.name))) continue;
      // The demo marks the file it creates before any connection of pos-sync opens it.
      if (module.name === "demo/demo-marker.ts") continue;
      // SQL shown to people (the demo's example queries) is fine; running it is the destination's.
      expect(module.text, module.name).not.toMatch(/\.(sqlite|orm)\b|\.prepare\(/);
      expect(module.packages, module.name).not.toContain("better-sqlite3");
      const handles = module.imports.filter((i) => ["db/open.ts", "db/store.ts"].includes(i));
      expect(handles, module.name).toEqual([]);
    }
  });
});
