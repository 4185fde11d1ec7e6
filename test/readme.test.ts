/** The README and the guides under docs/ work as shown: their SQL runs on a synced database, the
 * commands, flags and npm scripts they name exist, every relative link lands on a file and
 * heading that exist, and the README stays a read of one sitting that leads to every guide. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../src/cli/main.js";
import type { Db } from "../src/db/sqlite/open.js";
import { openTestDb, useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const read = (path: string) => readFileSync(join(root, path), "utf8");
const readme = read("README.md");
/** Every page under docs/, the guides and the generated references alike. */
const docs = readdirSync(join(root, "docs"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => `docs/${name}`);
/** The guides: the pages written by hand for one reader and one job. */
const GENERATED = ["docs/data-dictionary.md", "docs/benchmarks.md", "docs/api-spec.md"];
const guides = docs.filter((path) => !GENERATED.includes(path));
const pages = ["README.md", ...docs];
const texts = new Map(pages.map((path) => [path, read(path)]));
const manifest = JSON.parse(read("package.json")) as { scripts: Record<string, string> };

/** A page's lines outside fenced code blocks. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split("\n").filter((line) => {
    if (line.startsWith("```")) fenced = !fenced;
    return !fenced && !line.startsWith("```");
  });
}

/** The anchors of a page's headings, as GitHub makes them. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const line of prose(text)) {
    const heading = /^#{1,6} (.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const times = seen.get(base) ?? 0;
    seen.set(base, times + 1);
    found.add(times === 0 ? base : `${base}-${times}`);
  }
  return found;
}

/** The relative links of a page (images included), as written. */
function relativeLinks(text: string): string[] {
  return prose(text)
    .flatMap((line) => [...line.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? ""))
    .filter((target) => !/^[a-z]+:/i.test(target));
}

/** The text of every fenced block of a language ("" for blocks without one) in the pages. */
function codeBlocks(language: string): string[] {
  const fence = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm");
  return [...texts.values()].flatMap((text) =>
    [...text.matchAll(fence)].map((match) => match[1] ?? ""),
  );
}

/** Command lines as the pages show them: lines of code blocks and inline code spans that start
 * with `pos-sync <command>` (after an optional `$ ` and `npx `), comments dropped. */
function commandLines(): string[] {
  return [...texts.values()].flatMap((text) => {
    const blockLines = [...text.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].flatMap((m) =>
      (m[1] ?? "").split("\n"),
    );
    const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? "");
    return [...blockLines, ...spans]
      .map((line) =>
        line
          .replace(/^\$ /, "")
          .replace(/^npx /, "")
          .replace(/\s+#.*$/, ""),
      )
      .filter((line) => /^pos-sync [a-z]+(\s|$)/.test(line));
  });
}

describe("the README", () => {
  it("is read in one sitting, with the set-up commands on its first screen", () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(20_000);
    const firstScreen = readme.split("\n").slice(0, 60).join("\n");
    expect(firstScreen).toContain("npm ci && npm run demo");
    expect(firstScreen).toContain("npm test");
  });

  it("links every guide, one click away", () => {
    const linked = new Set(relativeLinks(readme).map((target) => target.split("#")[0]));
    expect(guides.length).toBeGreaterThanOrEqual(7);
    for (const guide of guides) expect(linked, guide).toContain(guide);
    expect(guides).toContain("docs/architecture.md");
  });

  it("quotes only figures that docs/benchmarks.md holds", () => {
    const figures = /^## Figures\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? "";
    const numbers = [...figures.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((m) => m[0]);
    expect(numbers.length).toBeGreaterThan(10);
    const benchmarks = texts.get("docs/benchmarks.md") ?? "";
    for (const number of numbers) expect(benchmarks, number).toContain(number);
  });
});

describe("the links of the README and the guides", () => {
  it("land on files that exist, and on headings that exist there", () => {
    const broken: string[] = [];
    for (const [page, text] of texts) {
      for (const target of relativeLinks(text)) {
        const [path = "", anchor] = target.split("#");
        const file = path === "" ? page : normalize(join(dirname(page), path));
        if (!existsSync(join(root, file))) broken.push(`${page}: ${target}`);
        else if (anchor && !anchors(texts.get(file) ?? read(file)).has(anchor))
          broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("the SQL of the README and the guides", () => {
  const sim = useSimulator();
  const tempPath = useTempDir();
  let db: Db;

  beforeAll(async () => {
    db = openTestDb(tempPath());
    const { result } = await syncOnce(sim.current, db);
    expect(result.status).toBe("succeeded");
  });
  afterAll(() => db.close());

  it("runs every statement of every sql block", () => {
    const statements = codeBlocks("sql").flatMap((block) =>
      block
        .split(/;\s*$/m)
        .map((s) => s.trim())
        .filter((s) => s.replace(/^--.*$/gm, "").trim() !== ""),
    );
    expect(statements.length).toBeGreaterThanOrEqual(5);
    for (const statement of statements) {
      expect(() => db.sqlite.prepare(statement).all(), statement).not.toThrow();
    }
  });
});

describe("the command lines of the README and the guides", () => {
  it("name commands that exist, with flags their help lists", async () => {
    const lines = commandLines();
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) {
      const [, name, rest = ""] = /^pos-sync ([a-z]+)(.*)$/.exec(line) ?? [];
      const listed = COMMANDS.find((c) => c.name === name);
      expect(listed, line).toBeDefined();
      const command = await listed?.load();
      for (const [flag] of rest.matchAll(/--[a-z][a-z-]*/g)) {
        if (flag === "--help") continue;
        expect(command?.help, `${line}: ${flag}`).toContain(flag);
      }
    }
  });

  it("name npm scripts that exist", () => {
    const scripts = [...texts.values()].flatMap((text) =>
      [...text.matchAll(/npm run ([a-z][a-z:-]*)/g)].map((m) => m[1] ?? ""),
    );
    expect(scripts).toContain("demo");
    for (const script of scripts) expect(Object.keys(manifest.scripts), script).toContain(script);
  });
});
