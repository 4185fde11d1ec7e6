/**
 * SQLite as the commands, the runner and the daemon use it (../database.ts): one file, written by
 * the command's thread, which holds it with the writer lease and serves the run's writes to the
 * run's thread (run-hold.ts); the daemon's status page read on a thread of its own. Its modules
 * load when first used: a thread that only asks how to word a failure loads none of them.
 */
import type { Database } from "../database.js";
import { databaseError, isStorageFailure } from "./errors.js";

export const sqliteDatabase: Database = {
  capabilities: { writer: "command's thread", statusPageThread: true },

  async openReader({ dbPath }, options = {}) {
    const [{ sqliteReader }, { openDatabase }, { openDatabaseForReading }] = await Promise.all([
      import("./reader.js"),
      import("./open.js"),
      import("./open-for-reading.js"),
    ]);
    const db = options.trusted
      ? openDatabase(dbPath, { readonly: true })
      : openDatabaseForReading(dbPath);
    return sqliteReader(db);
  },

  async openDestination({ dbPath }, { keepRaw, keepHistory }) {
    const { SqliteDestination } = await import("./destination.js");
    return SqliteDestination.open(dbPath, {
      keepRaw,
      ...(keepHistory === undefined ? {} : { keepHistory }),
    });
  },

  async holdForRuns({ dbPath }, options) {
    const { holdForRuns } = await import("./run-hold.js");
    return holdForRuns(dbPath, options);
  },

  async holdForDaemon({ dbPath }, options) {
    const { SqliteDaemonHold } = await import("./daemon-hold.js");
    return SqliteDaemonHold.open(dbPath, options);
  },

  async migrate({ dbPath }, onProgress) {
    const { migrateFile } = await import("./migrate-file.js");
    return migrateFile(dbPath, onProgress);
  },

  // Checked as the commands that read check it, then opened for writing, unmigrated and without
  // the lease (database.ts).
  async openOutbox({ dbPath }) {
    const [{ openDatabaseForReading }, { openDatabase }, { sqliteReader, sqliteSession }, ds] =
      await Promise.all([
        import("./open-for-reading.js"),
        import("./open.js"),
        import("./reader.js"),
        import("../deliveries/deliveries.js"),
      ]);
    openDatabaseForReading(dbPath).close();
    const db = openDatabase(dbPath, { migrate: false });
    const reader = sqliteReader(db);
    return {
      reader,
      deliveries: new ds.DeliveryStore(sqliteSession(db.sqlite)),
      close: () => reader.close(),
    };
  },

  async openRawDocuments({ dbPath }) {
    const [{ openDatabaseForReading }, { readRawRecords }] = await Promise.all([
      import("./open-for-reading.js"),
      import("./raw-archive.js"),
    ]);
    const db = openDatabaseForReading(dbPath);
    return {
      documents: async (table, id, locationId) =>
        readRawRecords(db.sqlite, table, id, locationId).map((d) => d.json),
      close: async () => db.close(),
    };
  },

  failureMessage(error, { dbPath }) {
    if (!isStorageFailure(error)) return undefined;
    return databaseError(error, dbPath, "write to the database").message;
  },

  demoFile: {
    async prepare(path, fresh) {
      const { prepareDemoDatabase } = await import("./demo-database.js");
      prepareDemoDatabase(path, fresh);
    },
  },
};
