/**
 * PostgreSQL as the commands, the runner and the daemon use it (../database.ts): the run's
 * thread writes the schema itself, over a pool of connections, beside the other workers that
 * share it (claims.ts); status and the page are read through a reader whose queries wait off the
 * thread. Its modules load when first used.
 */
import { describePostgresUrl, type PostgresTarget } from "../../config/config.js";
import type { Database, DatabaseSettings } from "../database.js";
import type { MigrationOutcome } from "./migrate.js";

function targetOf(settings: DatabaseSettings): PostgresTarget {
  if (!settings.postgres) throw new Error("the settings name no PostgreSQL database");
  return settings.postgres;
}

function migrationOutcome(target: PostgresTarget, outcome: MigrationOutcome): string {
  const where = `the schema ${target.schema} of ${describePostgresUrl(target.url)}`;
  if (outcome.created) return `created ${where} (${outcome.total} migrations applied)`;
  if (outcome.applied === 0)
    return `${where} is already up to date (${outcome.total} migrations applied)`;
  const plural = outcome.applied === 1 ? "" : "s";
  return `upgraded ${where}: applied ${outcome.applied} migration${plural} (${outcome.total} in all)`;
}

export const postgresDatabase: Database = {
  capabilities: { writer: "run's thread", statusPageThread: false },

  async openReader(settings) {
    const { openPgReader } = await import("./reader.js");
    return openPgReader(targetOf(settings));
  },

  async openDestination(settings, options) {
    const { PgDestination } = await import("./destination.js");
    return PgDestination.open(targetOf(settings), options);
  },

  // The run's thread connects itself; per-location turns keep workers apart, not a lease.
  async holdForRuns() {
    return { release: () => {} };
  },

  async holdForDaemon(settings) {
    const { PgDaemonHold } = await import("./daemon-hold.js");
    return PgDaemonHold.open(targetOf(settings));
  },

  async migrate(settings, onProgress) {
    const target = targetOf(settings);
    const { openPostgres } = await import("./open.js");
    const { pool, migration } = await openPostgres(target, 1, onProgress);
    await pool.end();
    return migrationOutcome(target, migration);
  },

  async openOutbox(settings) {
    const target = targetOf(settings);
    const [{ openPgReader, pgSession }, { lending, openPool }, { postgresError }, deliveries] =
      await Promise.all([
        import("./reader.js"),
        import("./connect.js"),
        import("./errors.js"),
        import("../deliveries/deliveries.js"),
      ]);
    const reader = await openPgReader(target);
    const writer = openPool(target, 1);
    const session = pgSession(lending(writer, target, (e) => postgresError(e, target, "write")));
    return {
      reader,
      deliveries: new deliveries.DeliveryStore(session),
      close: async () => {
        await writer.end();
        await reader.close();
      },
    };
  },

  async openRawDocuments(settings) {
    const { openPgRawDocuments } = await import("./reader.js");
    return openPgRawDocuments(targetOf(settings));
  },

  // A failure of the server is a DatabaseError already (errors.ts).
  failureMessage: () => undefined,
};
