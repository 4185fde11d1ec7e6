/**
 * Writes docs/data-dictionary.md from the schema and scripts/data-dictionary/dictionary/ (`npm run docs:schema`).
 * Refuses, with exit code 1, while the dictionary and the schema disagree.
 */
import { writeFileSync } from "node:fs";
import {
  checkDataDictionary,
  DATA_DICTIONARY_FILE,
  readSchema,
  renderDataDictionary,
} from "./data-dictionary.js";
import { TABLE_DOCS, VIEW_DOCS } from "./dictionary/index.js";

const docs = { tables: TABLE_DOCS, views: VIEW_DOCS };
const schema = readSchema();
const problems = checkDataDictionary(schema, docs);
if (problems.length > 0) {
  process.stderr.write(
    `The data dictionary does not match the schema (fix scripts/data-dictionary/dictionary/):\n${problems.map((p) => `- ${p}\n`).join("")}`,
  );
  process.exitCode = 1;
} else {
  writeFileSync(DATA_DICTIONARY_FILE, renderDataDictionary(schema, docs));
  const tables = schema.groups.flatMap((group) => group.tables);
  const columns = tables.reduce((sum, table) => sum + table.columns.length, 0);
  process.stdout.write(
    `Wrote docs/data-dictionary.md: ${tables.length} tables, ${columns} columns, ${schema.views.length} views.\n`,
  );
}
