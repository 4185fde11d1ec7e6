/** `pos-sync migrate`: applies the database migrations (every command also does at start). */
import { existsSync } from "node:fs";
import { migrationState } from "../db/migration-state.js";
import { openDatabase } from "../db/open.js";
import { upgradeProgressWriter } from "../ui/upgrade-progress.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import {
  CONFIG_FLAGS,
  CONFIG_HELP,
  commandConfig,
  isInteractive,
  openConfiguredDatabase,
} from "./common.js";

const HELP = `Usage: pos-sync migrate [--config FILE] [--db PATH]

Creates the database or upgrades it to this version's schema, keeping all data, and says which
it did. Every command that writes does the same when it opens the file; this one does nothing
else. An upgrade that moves stored data (such as the raw JSON of a database made before the raw
archive) shows its progress, works in batches, and carries on where it stopped if interrupted.

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

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, CONFIG_FLAGS, "migrate");
  const config = commandConfig(values, io, false);
  const pending = pendingBefore(config.dbPath);
  const db = openConfiguredDatabase(
    config,
    isInteractive(io)
      ? upgradeProgressWriter(io.stderr, true)
      : upgradeProgressWriter(io.stdout, false),
  );
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
  summary: "create or upgrade the database schema",
  help: HELP,
  run,
};
