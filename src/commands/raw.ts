/** `pos-sync raw TABLE ID`: one record's JSON as the API sent it, read back from the archive. */

import { databaseFor } from "../db/choose.js";
import { ARCHIVED_TABLE_NAMES } from "../db/raw/archived-tables.js";
import { EXIT, UsageError } from "../errors.js";
import { type Command, type CommandIo, parseFlagsAndArguments } from "./command.js";
import { CONFIG_FLAGS, CONFIG_HELP, commandConfig } from "./common.js";

const OPTIONS = { location: { type: "string" }, ...CONFIG_FLAGS } as const;

const HELP = `Usage: pos-sync raw TABLE ID [--location ID] [--config FILE] [--db PATH|URL]

Prints the JSON of one record as the API sent it (unknown fields included), from the raw
archive (table raw_records), one line per location that has a record of that id. TABLE is the
typed table that holds the record: ${ARCHIVED_TABLE_NAMES.join(", ")}. Reads the database only.
Exit 1 when the archive has no such record (not synced, or synced with POS_KEEP_RAW=false).

  --location ID            only that location's record (catalog ids may repeat across locations)
${CONFIG_HELP}
`;

function archivedTable(name: string | undefined): string {
  if (name !== undefined && ARCHIVED_TABLE_NAMES.includes(name)) return name;
  throw new UsageError(
    `raw takes a table (one of ${ARCHIVED_TABLE_NAMES.join(", ")}) and an id, got ${JSON.stringify(name ?? "")}`,
  );
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlagsAndArguments(argv, OPTIONS, "raw");
  const [tableArg, id, ...extra] = positionals;
  const table = archivedTable(tableArg);
  if (id === undefined || id === "" || extra.length > 0)
    throw new UsageError("raw takes exactly a table and an id (see pos-sync raw --help)");
  const config = commandConfig(values, io, false);
  // As received, on either database (on PostgreSQL an escaped NUL reads U+FFFD: text there
  // cannot hold one).
  const archive = await (await databaseFor(config)).openRawDocuments(config);
  try {
    const documents = await archive.documents(table, id, values.location);
    if (documents.length === 0) {
      io.stderr.write(
        `pos-sync: no raw JSON of ${table} ${id}${values.location ? ` at location ${values.location}` : ""} ` +
          "in the archive (not synced, or synced with POS_KEEP_RAW=false)\n",
      );
      return EXIT.incomplete;
    }
    for (const document of documents) io.stdout.write(`${document}\n`);
    return EXIT.ok;
  } finally {
    await archive.close();
  }
}

export const rawCommand: Command = {
  name: "raw",
  help: HELP,
  run,
};
