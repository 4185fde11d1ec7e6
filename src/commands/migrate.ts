/** `pos-sync migrate`: applies the database migrations (every command also does at start). */
import { existsSync } from "node:fs";
import { describePostgresUrl, type PostgresTarget } from "../config/config.js";
import type { MigrationOutcome } from "../db/pg/migrate.js";
import { migrationState } from "../db/sqlite/migration-state.js";
import { openDatabase } from "../db/sqlite/open.js";
import { upgradeProgressWriter } from "../ui/upgrade-progress.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import {
  CONFIG_FLAGS,
  CONFIG_HELP,
  commandConfig,
  isInteractive,
  openConfiguredDatabase,
} from "./common.js";

const HELP = `Usage: pos-sync migrate [--config FILE] [--db PATH|URL]

Creates the database or upgrades it to this version's schema, keeping all data, and says which
it did. Every command that writes does the same when it opens the file; this one does nothing
else. An upgrade that moves stored data (such as the raw JSON of a database made before the raw
archive) shows its progress, works in batches, and carries on where it stopped if interrupted.
On PostgreSQL (POS_DB_URL) it creates the schema (POS_DB_SCHEMA, default pos) and its tables
and views; several processes migrating at once take turns.

${CONFIG_HELP}
`;

/** Migrations the file lacks, read before anything changes it; undefined when there is no file. */
function pendingBefore(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const db = openDatabase(path, { readonly: true });
  try {
    return migrationState(db).pending;
  } finally {
    db.close();
  }
}

function outcome(path: string, pending: number | undefined, applied: number): string {
  if (pending === undefined) return `created the database ${path} (${applied} migrations applied)`;
  if (pending === 0) return `${path} is already up to date (${applied} migrations applied)`;
  return `upgraded ${path}: applied ${pending} migration${pending === 1 ? "" : "s"} (${applied} in all)`;
}

function postgresOutcome(target: PostgresTarget, outcome: MigrationOutcome): string {
  const where = `the schema ${target.schema} of ${describePostgresUrl(target.url)}`;
  if (outcome.created) return `created ${where} (${outcome.total} migrations applied)`;
  if (outcome.applied === 0)
    return `${where} is already up to date (${outcome.total} migrations applied)`;
  const plural = outcome.applied === 1 ? "" : "s";
  return `upgraded ${where}: applied ${outcome.applied} migration${plural} (${outcome.total} in all)`;
}

/** Progress redrawn on a terminal's standard error, or told line by line on standard output. */
function progressWriter(io: CommandIo) {
  return isInteractive(io)
    ? upgradeProgressWriter(io.stderr, true)
    : upgradeProgressWriter(io.stdout, false);
}

async function migrateToPostgres(target: PostgresTarget, io: CommandIo): Promise<number> {
  const { openPostgres } = await import("../db/pg/open.js");
  const { pool, migration } = await openPostgres(target, 1, progressWriter(io));
  await pool.end();
  io.stdout.write(`${postgresOutcome(target, migration)}\n`);
  return 0;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, CONFIG_FLAGS, "migrate");
  const config = commandConfig(values, io, false);
  if (config.postgres) return migrateToPostgres(config.postgres, io);
  const pending = pendingBefore(config.dbPath);
  const db = openConfiguredDatabase(config, progressWriter(io));
  try {
    const applied = migrationState(db).applied;
    io.stdout.write(`${outcome(config.dbPath, pending, applied)}\n`);
    return 0;
  } finally {
    db.close();
  }
}

export const migrateCommand: Command = {
  name: "migrate",
  help: HELP,
  run,
};
