/** `pos-sync probe`: finds what the API's document leaves unshown, and the settings to use. */
import { databaseFile } from "../db/choose.js";
import { EXIT } from "../errors.js";
import { refuseToReplace, SETTINGS_FILE, writeOutputFile } from "../output-file.js";
import { configUpdate } from "../probe/config-file.js";
import { isComplete, type ProbeFindings } from "../probe/findings.js";
import { runProbe } from "../probe/probe.js";
import { DEFAULT_PACE_MS, PROBE_BUDGET } from "../probe/probe-http.js";
import { formatProbe } from "../ui/format-probe.js";
import { integerFlag } from "./args.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import { commandConfig } from "./common.js";

/** The command line always paces: ten requests a second at most. */
const MIN_PACE_MS = 100;

const OPTIONS = {
  json: { type: "boolean" },
  "write-config": { type: "string" },
  "pace-ms": { type: "string" },
  config: { type: "string" },
} as const;

const HELP = `Usage: pos-sync probe [--json] [--write-config FILE] [--pace-ms N] [--config FILE]

Asks the API (POS_API_URL, with the first of POS_API_KEY/POS_API_KEYS) a short series of
read-only requests, at most ${PROBE_BUDGET}, one at a time and paced, to find what its document
does not show: the format of the authorization header, the paths of the report-by-id,
payment-method, tax and health operations, the order of lists, what a page past the last one
answers, what nextPageToken holds, whether size above 100 is capped or refused, whether health
needs the key, and the rate limits. It stops at the first sign of a rate limit (a 429, or the
server's count of requests left running low). It checks a sample of records against the spec,
says which findings were observed and which inferred, and prints the settings to use. The other
keys are checked to be accepted. The key is never printed.

  --json                   machine-readable output
  --write-config FILE      write the settings found into FILE (a --config file; an existing
                           one is updated, its keys and other settings kept; keys are never
                           written; a database, its -wal/-shm/.lock files or a file that is
                           not JSON settings is refused, exit 2)
  --pace-ms N              time between two requests (default ${DEFAULT_PACE_MS}; ${MIN_PACE_MS} to 5000)
  --config FILE            JSON settings (the environment wins over it)

Exit codes: 0 every setting found; 1 something not found, or the probe stopped early;
2 usage or configuration error; 3 the key was refused in every header format tried.
`;

function exitCode(report: ProbeFindings): number {
  if (report.stopped?.reason === "key-rejected") return EXIT.keyRejected;
  return isComplete(report) ? EXIT.ok : EXIT.incomplete;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, OPTIONS, "probe");
  const paceMs = integerFlag(values["pace-ms"], "pace-ms", { min: MIN_PACE_MS, max: 5_000 });
  const config = commandConfig(values, io, true);
  const file = values["write-config"];
  const inUse = {
    database: databaseFile(config),
    configFile: values.config,
  };
  // Refused before a request is sent: the probe's answers would have nowhere to go.
  if (file !== undefined) refuseToReplace(file, SETTINGS_FILE, inUse);
  const report = await runProbe({
    apiUrl: config.apiUrl,
    apiKeys: config.locations.map((l) => l.apiKey),
    authScheme: config.authScheme,
    paths: config.paths,
    ...(paceMs === undefined ? {} : { paceMs }),
    waitScale: io.waitScale,
  });
  io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatProbe(report));
  if (file !== undefined) {
    const update = configUpdate(file, report);
    // With --json, standard output holds the JSON alone.
    const say = values.json ? io.stderr : io.stdout;
    if (update.written.length === 0) {
      say.write(`\nnothing written to ${file}: the probe determined no setting\n`);
    } else {
      writeOutputFile(file, update.text, SETTINGS_FILE, inUse, 0o600);
      const left =
        update.leftAlone.length > 0 ? `; left as they were: ${update.leftAlone.join(", ")}` : "";
      say.write(`\nwrote ${file}: ${update.written.join(", ")}${left} (no key is written)\n`);
    }
  }
  return exitCode(report);
}

export const probeCommand: Command = {
  name: "probe",
  help: HELP,
  run,
};
