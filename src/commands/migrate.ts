/** `pos-sync migrate`: applies the database migrations (every command also does at start). */
import { type Command, type CommandIo, parseFlags } from "./command.js";
import { CONFIG_FLAGS, CONFIG_HELP, commandConfig, openConfiguredDatabase } from "./common.js";

const HELP = `Usage: pos-sync migrate [--config FILE] [--db PATH]

Creates the database or upgrades it to this version's schema, keeping all data. Every other
command does the same when it opens the file; this one does nothing else.

${CONFIG_HELP}
`;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, CONFIG_FLAGS, "migrate");
  const config = commandConfig(values, io, false);
  const db = openConfiguredDatabase(config);
  try {
    const applied = db.sqlite
      .prepare("SELECT COUNT(*) FROM __drizzle_migrations")
      .pluck()
      .get() as number;
    io.stdout.write(`${config.dbPath} is up to date (${applied} migrations applied)\n`);
    return 0;
  } finally {
    db.close();
  }
}

export const migrateCommand: Command = {
  name: "migrate",
  summary: "create or upgrade the database schema",
  help: HELP,
  run,
};
