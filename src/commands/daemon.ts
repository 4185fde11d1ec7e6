/** `pos-sync daemon`: sync on a schedule, serve health and metrics, stop cleanly on signals. */

import cron from "node-cron";
import { pino } from "pino";
import { SETTINGS } from "../config/settings.js";
import { runDaemon } from "../daemon/daemon.js";
import { UsageError } from "../errors.js";
import { createLogger } from "../log.js";
import { integerFlag } from "./args.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import { CONFIG_FLAGS, CONFIG_HELP, commandConfig, stopOnSignals } from "./common.js";

const OPTIONS = {
  schedule: { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  // Accepted and ignored: a unit file that still passes it must not stop the service.
  "health-max-age": { type: "string" },
  "no-raw": { type: "boolean" },
  "no-history": { type: "boolean" },
  "time-zone": { type: "string" },
  ...CONFIG_FLAGS,
} as const;

const HELP = `Usage: pos-sync daemon [--schedule CRON] [--port N] [--host H]
                       [--no-raw] [--no-history] [--time-zone ZONE] [--config FILE] [--db PATH|URL]

Runs a sync at start and then on the schedule, never two at once (a tick during a run is
skipped and logged; after the machine slept, one catch-up run). Holds the database for
writing: a second daemon or a manual sync refuses while it runs; readers are never blocked.
With POS_REPORT_* set, sends the morning report at POS_REPORT_AT on the locations' clocks and
health alerts as they start and end, each once per recipient (an outbox retries what failed).
Logs one JSON event per line on standard output. SIGTERM or SIGINT: finish the page in hand,
record the run as interrupted, exit 0; a second signal exits at once.

  --schedule CRON          cron expression, seconds optional (default POS_SCHEDULE, */15 * * * *)
  --port N                 serve /healthz and /metrics on this port (default POS_HTTP_PORT);
                           /healthz answers 503 while the sync-failing alert's rule holds
  --host H                 address to serve them on (default POS_HTTP_HOST, 127.0.0.1); on
                           another, the status page at / needs POS_HTTP_TOKEN (403 without)
  --no-raw                 keep no raw JSON of the records written (default POS_KEEP_RAW, true)
  --no-history             keep no earlier versions of changed orders (default POS_ORDER_HISTORY, true)
  --time-zone ZONE         IANA time zone of the locations without their own in the config
                           file, for the hours of UTC timestamps (default POS_TIME_ZONE)
${CONFIG_HELP}
`;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, OPTIONS, "daemon");
  const config = commandConfig(values, io, true, {
    schedule: values.schedule,
    httpPort: integerFlag(values.port, "port", SETTINGS.httpPort),
    httpHost: values.host,
    keepRaw: values["no-raw"] === true ? false : undefined,
    orderHistory: values["no-history"] === true ? false : undefined,
    timeZone: values["time-zone"],
  });
  if (!cron.validate(config.schedule)) {
    throw new UsageError(
      `the schedule is not a cron expression: ${JSON.stringify(config.schedule)}`,
    );
  }
  // A service's logs go to standard output, where its supervisor collects them.
  const logger = createLogger({
    level: config.logLevel,
    destination: pino.destination({ dest: 1, sync: true }),
  });
  for (const notice of config.notices) logger.warn(notice);
  if (values["health-max-age"] !== undefined)
    logger.warn(
      "--health-max-age no longer applies: /healthz answers 503 by the sync-failing alert's rule (docs/service.md, When the sync is failing)",
    );
  const stop = new AbortController();
  const release = stopOnSignals(stop, logger);
  try {
    return await runDaemon({
      config,
      logger,
      ...(config.httpPort === undefined
        ? {}
        : { http: { host: config.httpHost, port: config.httpPort } }),
      signal: stop.signal,
      waitScale: io.waitScale,
    });
  } finally {
    release();
  }
}

export const daemonCommand: Command = {
  name: "daemon",
  help: HELP,
  run,
};
