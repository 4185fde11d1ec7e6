/**
 * Both destinations behind one face, so that one suite proves the same guarantees of each: a
 * fresh empty database of either kind, the sync's port to it, what the command line needs to
 * reach it, and its stored data to read back.
 */
import type { SyncDestination } from "../../src/db/destination.js";
import { PgDestination } from "../../src/db/pg/destination.js";
import { SqliteDestination } from "../../src/db/sqlite/destination.js";
import { openTestDb, useTempDir } from "./db.js";
import { acrossPort } from "./port.js";
import { usePostgres } from "./postgres.js";
import { postgresData, type StoredData, sqliteData } from "./stored-data.js";

export type DestinationKind = "sqlite" | "postgres";

export const DESTINATION_KINDS: readonly DestinationKind[] = ["sqlite", "postgres"];

export interface TestDestination {
  /** The environment that points the command line at it. */
  env: Record<string, string>;
  /** The sync's port to it, as a sync in production writes through it (the caller closes it). */
  open(options?: { keepRaw?: boolean; concurrency?: number }): Promise<SyncDestination>;
  /** Its stored data, read back; closed after the test file. */
  stored(): Promise<StoredData>;
}

/** Call at the top of a test file: `fresh(kind)` then gives an empty database of that kind, as
 * a new install's first command leaves it: migrated. */
export function useDestinations(): {
  fresh(kind: DestinationKind): Promise<TestDestination>;
  closeReaders(): Promise<void>;
} {
  const tempPath = useTempDir();
  const postgres = usePostgres();
  const readers: StoredData[] = [];
  const remember = (data: StoredData) => {
    readers.push(data);
    return data;
  };
  return {
    async fresh(kind): Promise<TestDestination> {
      if (kind === "sqlite") {
        const path = tempPath();
        return {
          env: { POS_DB_PATH: path },
          // Across the message port a sync in a worker thread writes through, as in production.
          open: async (options = {}) => {
            const local = SqliteDestination.open(path, {
              keepRaw: options.keepRaw ?? true,
              compressAhead: true,
            });
            const { destination, close } = acrossPort(local);
            return {
              ...destination,
              close: async () => {
                await destination.close();
                await close();
                await local.close();
              },
            };
          },
          stored: async () => {
            const db = openTestDb(path);
            const data = sqliteData(db);
            return remember({ ...data, close: async () => db.close() });
          },
        };
      }
      const target = await postgres.migrated();
      return {
        env: { POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema },
        open: (options = {}) =>
          PgDestination.open(target, {
            keepRaw: options.keepRaw ?? true,
            poolSize: options.concurrency ?? 4,
          }),
        stored: async () => remember(postgresData(target)),
      };
    },
    async closeReaders() {
      for (const reader of readers.splice(0)) await reader.close();
    },
  };
}
