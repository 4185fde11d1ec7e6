/** `pos-sync migrate`: applies the database migrations (every command also does at start). */
import { databaseFor } from "../db/choose.js";
import { upgradeProgressWriter } from "../ui/upgrade-progress.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import { CONFIG_FLAGS, CONFIG_HELP, commandConfig, isInteractive } from "./common.js";

const HELP = `Usage: pos-sync migrate [--config FILE] [--db PATH|URL]

Creates the database or upgrades it to this version's schema, keeping all data, and says which
it did. Every command that writes does the same when it opens the file; this one does nothing
else. An upgrade that moves stored data (such as the raw JSON of a database made before the raw
archive) shows its progress, works in batches, and carries on where it stopped if interrupted.
On PostgreSQL (POS_DB_URL) it creates the schema (POS_DB_SCHEMA, default pos) and its tables
and views; several processes migrating at once take turns.

${CONFIG_HELP}
`;

/** Progress redrawn on a terminal's standard error, or told line by line on standard output. */
function progressWriter(io: CommandIo) {
  return isInteractive(io)
    ? upgradeProgressWriter(io.stderr, true)
    : upgradeProgressWriter(io.stdout, false);
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, CONFIG_FLAGS, "migrate");
  const config = commandConfig(values, io, false);
  const database = await databaseFor(config);
  io.stdout.write(`${await database.migrate(config, progressWriter(io))}\n`);
  return 0;
}

export const migrateCommand: Command = {
  name: "migrate",
  help: HELP,
  run,
};
