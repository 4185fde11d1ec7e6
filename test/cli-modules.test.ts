import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { childEnv, SHIPPED_CLI_PATH } from "./helpers/cli.js";

const TRACE = fileURLToPath(new URL("./helpers/loaded-modules.mjs", import.meta.url));
/** The sources each file of the bundled command line holds (scripts/bundle.mjs). */
const BUNDLED_SOURCES = new URL("../dist/bin/modules.json", import.meta.url);

/** The source modules a command line loads: those of each file of dist/bin/ it loads. */
function modulesLoadedBy(args: string[]): string[] {
  const run = spawnSync(process.execPath, ["--import", TRACE, SHIPPED_CLI_PATH, ...args], {
    env: childEnv({}),
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  const sources = JSON.parse(readFileSync(BUNDLED_SOURCES, "utf8")) as Record<string, string[]>;
  const files = [...run.stderr.matchAll(/^loaded dist\/bin\/(\S+)$/gm)].map((m) => m[1] ?? "");
  expect(files).toContain("cli.js");
  return files.flatMap((file) => sources[file] ?? []);
}

describe("the command line's start", () => {
  it("loads a command's own modules alone: sync neither the daemon's nor the simulator's", () => {
    const loaded = modulesLoadedBy(["sync", "--help"]);
    expect(loaded).toContain("src/commands/sync.ts");
    expect(loaded.filter((path) => /^src\/(daemon|simulator|probe|demo)\//.test(path))).toEqual([]);
    const otherCommands = loaded.filter(
      (path) => path.startsWith("src/commands/") && !/\/(sync|args|command|common)\.ts$/.test(path),
    );
    expect(otherCommands).toEqual([]);
  });

  it("lists its commands without loading any", () => {
    const loaded = modulesLoadedBy(["--version"]);
    expect(loaded).toContain("src/cli/cli.ts");
    expect(loaded.filter((path) => path.startsWith("src/commands/"))).toEqual([]);
  });
});
