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
import { databaseFor } from "../db/choose.js";
import type { OutboxStorage } from "../db/database.js";

export type { OutboxStorage } from "../db/database.js";

export async function openOutboxStorage(config: Config): Promise<OutboxStorage> {
  return (await databaseFor(config)).openOutbox(config);
}
