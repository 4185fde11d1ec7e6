import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI_PATH, childEnv } from "./helpers/cli.js";

const TRACE = fileURLToPath(new URL("./helpers/loaded-modules.mjs", import.meta.url));

/** The dist/ modules a command line loads, by path. */
function modulesLoadedBy(args: string[]): string[] {
  const run = spawnSync(process.execPath, ["--import", TRACE, CLI_PATH, ...args], {
    env: childEnv({}),
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return [...run.stderr.matchAll(/^loaded (\S+)$/gm)].map((m) => m[1] ?? "");
}

describe("the command line's start", () => {
  it("loads a command's own modules alone: sync neither the daemon's nor the simulator's", () => {
    const loaded = modulesLoadedBy(["sync", "--help"]);
    expect(loaded).toContain("dist/commands/sync.js");
    expect(loaded.filter((path) => /^dist\/(daemon|simulator|probe|demo)\//.test(path))).toEqual(
      [],
    );
    const otherCommands = loaded.filter(
      (path) =>
        path.startsWith("dist/commands/") && !/\/(sync|args|command|common)\.js$/.test(path),
    );
    expect(otherCommands).toEqual([]);
  });

  it("lists its commands without loading any", () => {
    const loaded = modulesLoadedBy(["--version"]);
    expect(loaded).toContain("dist/cli.js");
    expect(loaded.filter((path) => path.startsWith("dist/commands/"))).toEqual([]);
  });
});
