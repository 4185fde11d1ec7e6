/** The README's examples work as shown: its SQL runs on a synced database, and the commands,
 * flags and npm scripts it names exist. */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../src/cli.js";
import type { Db } from "../src/db/open.js";
import { openTestDb, useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  scripts: Record<string, string>;
};

/** The text of every fenced block of a language ("" for blocks without one). */
function codeBlocks(language: string): string[] {
  const fence = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm");
  return [...readme.matchAll(fence)].map((match) => match[1] ?? "");
}

/** Command lines as the README shows them: lines of code blocks and inline code spans that
 * start with `pos-sync <command>` (after an optional `$ ` and `npx `), comments dropped. */
function commandLines(): string[] {
  const blockLines = [...readme.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].flatMap((m) =>
    (m[1] ?? "").split("\n"),
  );
  const spans = [...readme.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? "");
  return [...blockLines, ...spans]
    .map((line) =>
      line
        .replace(/^\$ /, "")
        .replace(/^npx /, "")
        .replace(/\s+#.*$/, ""),
    )
    .filter((line) => /^pos-sync [a-z]+(\s|$)/.test(line));
}

describe("the README's SQL", () => {
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

describe("the README's command lines", () => {
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
    const scripts = [...readme.matchAll(/npm run ([a-z][a-z:-]*)/g)].map((m) => m[1] ?? "");
    expect(scripts).toContain("demo");
    for (const script of scripts) expect(Object.keys(manifest.scripts), script).toContain(script);
  });
});
