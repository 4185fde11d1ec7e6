/**
 * The one place that chooses between the databases, from the settings: PostgreSQL when they name
 * a server, else the SQLite file. Each factory is loaded only when chosen, so that a SQLite
 * command spares PostgreSQL's modules their start-up CPU (and the other way round).
 */
import type { Database, DatabaseSettings } from "./database.js";

export async function databaseFor(settings: DatabaseSettings): Promise<Database> {
  if (settings.postgres) return (await import("./pg/factory.js")).postgresDatabase;
  return (await import("./sqlite/factory.js")).sqliteDatabase;
}

/** The database's file, where the database is one (a command must not write its output over
 * it); undefined for a server. */
export function databaseFile(settings: DatabaseSettings): string | undefined {
  return settings.postgres ? undefined : settings.dbPath;
}
