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

  /**
   * Every folder of src/, lowest first; "(top)" is the files at the top of src/. A folder imports
   * only folders below it, so that each stage can be read, tested and replaced without what
   * stands on it.
   */
  const LAYERS = [
    "clock",
    "(top)",
    "api",
    "config",
    "db",
    "streams",
    "proof",
    "sync",
    "read-models",
    "messages",
    "alerts",
    "morning-report",
    "probe",
    "simulator",
    "ui",
    "runner",
    "demo",
    "daemon",
    "commands",
    "cli",
  ];
  const layerOf = (name: string) => (name.includes("/") ? folder(name) : "(top)");

  it("know every folder of src/ by its layer", () => {
    const folders = new Set([...modules.keys()].map(layerOf));
    expect([...folders].sort()).toEqual([...LAYERS].sort());
  });

  it("import only from the layers below", () => {
    const upward = [...modules.values()].flatMap((m) =>
      m.imports
        .filter((i) => LAYERS.indexOf(layerOf(i)) > LAYERS.indexOf(layerOf(m.name)))
        .map((i) => `${m.name} → ${i}`),
    );
    expect(upward).toEqual([]);
  });

  it("keep the vocabulary at the bottom", () => {
    expect(modules.get("vocabulary.ts")?.imports).toEqual([]);
  });

  it("keep the clock at the bottom, and zone and locale arithmetic in it alone", () => {
    const clock = [...modules.values()].filter((m) => folder(m.name) === "clock");
    expect(clock.length).toBeGreaterThan(5);
    expect(clock.flatMap((m) => m.imports.filter((i) => folder(i) !== "clock"))).toEqual([]);
    const elsewhere = [...modules.values()]
      .filter((m) => folder(m.name) !== "clock")
      .filter((m) => /Intl\.DateTimeFormat|formatToParts|toLocale\w*String/.test(m.text))
      .map((m) => m.name);
    expect(elsewhere).toEqual([]);
  });

  it("keep storage below the engine, the streams and everything that uses them", () => {
    const above = [
      "sync",
      "proof",
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
    // The proof's rules sit below the engine that applies them: they import no run.
    expect(importersOf("proof", ["sync", "runner", "commands", "daemon"])).toEqual([]);
  });

  it("keep the probe on the API alone: it reads no database and runs no sync", () => {
    const probe = [...modules.values()].filter((m) => folder(m.name) === "probe");
    expect(probe.length).toBeGreaterThan(5);
    const elsewhere = [
      "db",
      "sync",
      "proof",
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
        ["db/sqlite/open.ts", "db/sqlite/destination.ts", "db/sqlite/checkpoints.ts"].includes(i),
      );
      expect(handles, module.name).toEqual([]);
    }
    expect(importersOf("sync", ["read-models", "ui", "runner", "commands", "daemon"])).toEqual([]);
  });

  it("give each database a folder of its own, the only one that imports its driver", () => {
    const drivers: Record<string, readonly string[]> = {
      sqlite: ["better-sqlite3", "drizzle-orm/better-sqlite3"],
      pg: ["pg", "drizzle-orm/node-postgres"],
    };
    const misplaced: string[] = [];
    for (const [database, packages] of Object.entries(drivers)) {
      const inside = (name: string) => name.startsWith(`db/${database}/`);
      expect([...modules.keys()].filter(inside).length, database).toBeGreaterThan(10);
      for (const module of modules.values()) {
        const driver = module.packages.filter((p) => packages.includes(p));
        if (driver.length > 0 && !inside(module.name))
          misplaced.push(`${module.name} imports ${driver.join(", ")}`);
        const other = Object.keys(drivers).find((d) => d !== database) as string;
        if (inside(module.name))
          for (const target of module.imports.filter((i) => i.startsWith(`db/${other}/`)))
            misplaced.push(`${module.name} → ${target}`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it("have no two folders that import each other, in src/ and in src/db/", () => {
    // A folder's files, with the files at the top of src/ (or of src/db/) counted as one folder.
    const mutual = (within: string) => {
      const folderOf = (name: string) => {
        if (!name.startsWith(within)) return undefined;
        const parts = name.slice(within.length).split("/");
        return parts.length > 1 ? parts[0] : "(top)";
      };
      const arrows = new Map<string, string>();
      for (const module of modules.values())
        for (const target of module.imports) {
          const [from, to] = [folderOf(module.name), folderOf(target)];
          if (from && to && from !== to)
            arrows.set(`${from} → ${to}`, `${module.name} → ${target}`);
        }
      return [...arrows.keys()]
        .filter((arrow) => {
          const [from, to] = arrow.split(" → ") as [string, string];
          return from < to && arrows.has(`${to} → ${from}`);
        })
        .map((arrow) => {
          const [from, to] = arrow.split(" → ") as [string, string];
          return `${arrows.get(arrow)} and ${arrows.get(`${to} → ${from}`)}`;
        });
    };
    expect(mutual("")).toEqual([]);
    expect(mutual("db/")).toEqual([]);
  });

  it("keep every file under 600 lines", () => {
    const long = [...modules.values()]
      .map((m) => ({ name: m.name, lines: m.text.split("\n").length }))
      .filter(({ lines }) => lines > 600);
    expect(long).toEqual([]);
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
      // SQL shown to people (the demo's example queries) is fine; running it is the destination's.
      expect(module.text, module.name).not.toMatch(/\.(sqlite|orm)\b|\.prepare\(/);
      expect(module.packages, module.name).not.toContain("better-sqlite3");
      const handles = module.imports.filter((i) => i === "db/sqlite/open.ts");
      expect(handles, module.name).toEqual([]);
    }
  });
});
