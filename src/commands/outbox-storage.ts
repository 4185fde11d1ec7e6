/**
 * The database as `report --send` holds it: a reader for the report, and the deliveries it
 * records and sends through, the daemon's outbox. A database sync made, at this version's schema,
 * checked as the commands that read check it (exit 2 otherwise), then opened for writing: never
 * created, nor migrated, nor held with the writer lease. A report from cron is no time to
 * upgrade a database a daemon of another version may be using; and the deliveries are made for
 * several processes (each message taken by one of them before it is sent), so a daemon running
 * meanwhile is no reason to refuse.
 */
import type { Config } from "../config/config.js";
import { DeliveryStore } from "../db/deliveries/deliveries.js";
import type { Reader } from "../db/reads/reader.js";
import { openDatabase } from "../db/sqlite/open.js";
import { sqliteReader, sqliteSession } from "../db/sqlite/reader.js";
import { openDatabaseForReading } from "./common.js";

export interface OutboxStorage {
  reader: Reader;
  deliveries: DeliveryStore;
  close(): Promise<void>;
}

export async function openOutboxStorage(config: Config): Promise<OutboxStorage> {
  if (config.postgres) {
    const target = config.postgres;
    // Loaded only here: a SQLite command spares PostgreSQL's modules their start-up CPU.
    const [{ openPgReader, pgSession }, { lending, openPool }, { postgresError }] =
      await Promise.all([
        import("../db/pg/reader.js"),
        import("../db/pg/connect.js"),
        import("../db/pg/errors.js"),
      ]);
    const reader = await openPgReader(target);
    const writer = openPool(target, 1);
    const session = pgSession(lending(writer, target, (e) => postgresError(e, target, "write")));
    return {
      reader,
      deliveries: new DeliveryStore(session),
      close: async () => {
        await writer.end();
        await reader.close();
      },
    };
  }
  openDatabaseForReading(config).close();
  const db = openDatabase(config.dbPath, { migrate: false });
  const reader = sqliteReader(db);
  return {
    reader,
    deliveries: new DeliveryStore(sqliteSession(db.sqlite)),
    close: () => reader.close(),
  };
}
