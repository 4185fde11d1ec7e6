/** `pos-sync simulate`: serves the POS API simulator on loopback and prints its API keys. */

import { offsetText } from "../clock/offsets.js";
import { createLogger, isLogLevel } from "../log.js";
import { CATALOG_KINDS } from "../simulator/catalog-lists.js";
import { fixedOffsetZone, WESTERNMOST_OFFSET } from "../simulator/clock.js";
import {
  type FaultSettings,
  OVERSIZE_PAGE_BEHAVIOURS,
  PAGE_TOKEN_FORMS,
  PAST_END_BEHAVIOURS,
} from "../simulator/faults.js";
import { startSimulator } from "../simulator/server.js";
import { visible } from "../terminal-text.js";
import { choiceFlag, dayFlag, decimalFlag, fractionFlag, integerFlag, rangeFlag } from "./args.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";

const OPTIONS = {
  port: { type: "string" },
  seed: { type: "string" },
  locations: { type: "string" },
  days: { type: "string" },
  today: { type: "string" },
  "orders-per-day": { type: "string" },
  "items-per-order": { type: "string" },
  "change-rate": { type: "string" },
  "auth-scheme": { type: "string" },
  latency: { type: "string" },
  "error-rate": { type: "string" },
  "rate-limit-rate": { type: "string" },
  "retry-after": { type: "string" },
  "retry-after-seconds": { type: "string" },
  "drop-rate": { type: "string" },
  "slow-rate": { type: "string" },
  "slow-ms": { type: "string" },
  "malformed-rate": { type: "string" },
  descending: { type: "boolean" },
  "duplicates-across-pages": { type: "boolean" },
  "changes-between-pages": { type: "boolean" },
  hostile: { type: "boolean" },
  "hostile-names": { type: "boolean" },
  "utc-timestamps": { type: "boolean" },
  "live-orders": { type: "string" },
  "past-end": { type: "string" },
  "oversize-page": { type: "string" },
  "page-token": { type: "string" },
  "ignore-index": { type: "boolean" },
  "health-needs-key": { type: "boolean" },
  "rate-limit-per-minute": { type: "string" },
  "strict-slashes": { type: "boolean" },
  "total-count-skew": { type: "string" },
  "late-updates-every": { type: "string" },
  "drift-after": { type: "string" },
  "drift-share": { type: "string" },
  "path-report": { type: "string" },
  "path-payment-methods": { type: "string" },
  "path-taxes": { type: "string" },
  "path-health": { type: "string" },
} as const;

/** Drift spares the days a daemon reads again anyway (its default lookback and today). */
const DRIFT_OLDER_THAN_DAYS = 3;

const HELP = `Usage: pos-sync simulate [options]

Serves a simulator of the Point-of-Sale Data Read API on 127.0.0.1 with seeded, deterministic
restaurant data, and prints its base address and one API key per location.

Data:
  --port N                 port to listen on (default 8080; 0 picks a free one)
  --seed N                 seed of the generated data (default 1)
  --locations N            locations, one API key each (default 1)
  --days N                 days of data ending today (default 30)
  --today YYYY-MM-DD       last day of data; its session is still open (default: today at the
                           westernmost location, ${offsetText(WESTERNMOST_OFFSET, "clock")})
  --orders-per-day MIN-MAX orders per full day (default 50-200)
  --items-per-order MIN-MAX items per order (default: 1 to 8, following the guests)
  --auth-scheme NAME       expect "authorization: NAME <key>" instead of the bare key
  --utc-timestamps         write every date-time in UTC (…Z) instead of the location's offset
                           (the locations' offsets are printed with their keys)
  --change-rate F          multiply the rates of after-the-fact order changes (default 1: per
                           order about 0.5 % cancelled after payment, 1 % with an item voided
                           and 0.7 % discounted after closing, 0.2 % paid short); 0 to 50,
                           0 turns them off. A change shows once the simulated clock (today
                           18:00 local) has passed it

A hostile world (rates are shares of API requests, from 0 to 1):
  --latency MS             delay every response
  --error-rate R           answer 5xx
  --rate-limit-rate R      answer 429 with Retry-After
  --retry-after FORM       seconds (default) or http-date
  --retry-after-seconds N  Retry-After value (default 1)
  --drop-rate R            close the connection abruptly (before headers or mid-body)
  --slow-rate R            delay a response by --slow-ms more
  --slow-ms MS
  --malformed-rate R       share of records served malformed (always the same ones)
  --descending             list newest first
  --duplicates-across-pages  repeat the last order of a page on the next one
  --changes-between-pages  change an order of a page and serve it again on the next one
  --hostile                hostile data: optional fields absent, nulls, unknown fields, long
                           and control-character strings, odd amounts, a few invalid orders
  --hostile-names          name every location, operator and product with terminal controls
                           (ESC colour and window-title sequences, CR, LF, DEL, C1, bidi
                           overrides) and chat markup (<!channel>, @here, disguised links)
  --live-orders N          add N new orders to today on each orders list request covering today
  --past-end MODE          a page past the last: empty (default), not-found, bad-request or
                           last-page (the last page again)
  --oversize-page MODE     size above 100: cap (default, as the spec states), refuse (400) or
                           accept (serve as asked, up to 1000)
  --page-token FORM        nextPageToken: encoded-index (default, base64url JSON of the next
                           index), opaque, or none
  --ignore-index           serve the first page whatever the index (a server that cannot be
                           paged)
  --health-needs-key       the health operation asks for the key too
  --rate-limit-per-minute N  at most N requests per key a minute, announced in X-RateLimit-*
                           headers; a 429 with Retry-After beyond
  --total-count-skew N     add N to meta.totalCount (a server that lies)
  --late-updates-every S   every S seconds, update a few recent orders and hide or restore
                           catalog items
  --drift-after S          S seconds after the start, make history drift, as a vendor's silent
                           corrections do: on a share of the days older than 3 days, one order
                           changed, removed or added, no updatedAt touched (logged with its days);
                           \`pos-sync verify --repair\` and the daemon's audit find and repair them
  --drift-share F          the share of those days that drift (default 0.01)

Paths the spec does not show (defaults as pos-sync expects them):
  --strict-slashes         route "/x" and "/x/" apart (by default a trailing slash is optional)
  --path-report P          default /v1/reports/{id}
  --path-payment-methods P default /v1/catalog/payment-methods/
  --path-taxes P           default /v1/catalog/taxes/
  --path-health P          default /health
`;

function faultSettings(values: ReturnType<typeof parse>): Partial<FaultSettings> {
  const settings: Partial<FaultSettings> = {};
  const assign = <K extends keyof FaultSettings>(key: K, value: FaultSettings[K] | undefined) => {
    if (value !== undefined) settings[key] = value;
  };
  assign("latencyMs", integerFlag(values.latency, "latency", { min: 0, max: 600_000 }));
  assign("serverErrorRate", fractionFlag(values["error-rate"], "error-rate"));
  assign("rateLimitRate", fractionFlag(values["rate-limit-rate"], "rate-limit-rate"));
  assign(
    "retryAfterForm",
    choiceFlag(values["retry-after"], "retry-after", ["seconds", "http-date"] as const),
  );
  assign(
    "retryAfterSeconds",
    integerFlag(values["retry-after-seconds"], "retry-after-seconds", { min: 0, max: 3600 }),
  );
  assign("dropRate", fractionFlag(values["drop-rate"], "drop-rate"));
  assign("slowRate", fractionFlag(values["slow-rate"], "slow-rate"));
  assign("slowMs", integerFlag(values["slow-ms"], "slow-ms", { min: 0, max: 600_000 }));
  assign("malformedRate", fractionFlag(values["malformed-rate"], "malformed-rate"));
  assign("descending", values.descending);
  assign("duplicatesAcrossPages", values["duplicates-across-pages"]);
  assign("changesBetweenPages", values["changes-between-pages"]);
  assign(
    "liveOrdersPerRequest",
    integerFlag(values["live-orders"], "live-orders", { min: 0, max: 1000 }),
  );
  assign("pastEnd", choiceFlag(values["past-end"], "past-end", PAST_END_BEHAVIOURS));
  assign(
    "oversizePage",
    choiceFlag(values["oversize-page"], "oversize-page", OVERSIZE_PAGE_BEHAVIOURS),
  );
  assign("pageToken", choiceFlag(values["page-token"], "page-token", PAGE_TOKEN_FORMS));
  assign("ignoresIndex", values["ignore-index"]);
  assign("healthNeedsKey", values["health-needs-key"]);
  assign(
    "rateLimitPerMinute",
    integerFlag(values["rate-limit-per-minute"], "rate-limit-per-minute", { min: 1, max: 100_000 }),
  );
  assign("totalCountSkew", integerFlag(values["total-count-skew"], "total-count-skew"));
  return settings;
}

function parse(argv: string[]) {
  return parseFlags(argv, OPTIONS, "simulate");
}

function waitForSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parse(argv);
  const level = io.env.LOG_LEVEL ?? "info";
  const logger = createLogger({ level: isLogLevel(level) ? level : "info" });
  const paths = {
    ...(values["path-report"] === undefined ? {} : { report: values["path-report"] }),
    ...(values["path-payment-methods"] === undefined
      ? {}
      : { paymentMethods: values["path-payment-methods"] }),
    ...(values["path-taxes"] === undefined ? {} : { taxes: values["path-taxes"] }),
    ...(values["path-health"] === undefined ? {} : { health: values["path-health"] }),
  };
  const lateUpdatesEvery = integerFlag(values["late-updates-every"], "late-updates-every", {
    min: 1,
    max: 86_400,
  });
  const simulator = await startSimulator({
    port: integerFlag(values.port, "port", { min: 0, max: 65_535 }) ?? 8080,
    seed: integerFlag(values.seed, "seed", { min: 0, max: 2 ** 31 - 1 }) ?? 1,
    locations: integerFlag(values.locations, "locations", { min: 1, max: 1000 }) ?? 1,
    days: integerFlag(values.days, "days", { min: 1, max: 20_000 }) ?? 30,
    // Without --today, the simulator picks its own (simulatorToday).
    today: dayFlag(values.today, "today"),
    ordersPerDay: rangeFlag(values["orders-per-day"], "orders-per-day") ?? [50, 200],
    ...(values["items-per-order"] === undefined
      ? {}
      : { itemsPerOrder: rangeFlag(values["items-per-order"], "items-per-order") }),
    changeRate: decimalFlag(values["change-rate"], "change-rate", { min: 0, max: 50 }) ?? 1,
    authScheme: values["auth-scheme"] ?? "",
    strictSlashes: values["strict-slashes"] ?? false,
    hostile: values.hostile ?? false,
    hostileNames: values["hostile-names"] ?? false,
    utcTimestamps: values["utc-timestamps"] ?? false,
    paths,
    faults: faultSettings(values),
    logger,
  });

  const { dataset } = simulator;
  const out = (line = "") => io.stdout.write(`${line}\n`);
  out(`POS API simulator listening on ${simulator.url}`);
  out(
    `data: ${dataset.locations.length} location(s), ${dataset.firstDay} to ${dataset.today}, seed ${dataset.seed}`,
  );
  out();
  for (const location of dataset.locations) {
    out(`  ${visible(location.location.name ?? "")}  location ${location.location.id}`);
    out(`    API key: ${location.apiKey}`);
    if (location.sendsUtc) {
      const zone = fixedOffsetZone(location.offsetMinutes) ?? "(none fixed)";
      out(`    local clock: ${offsetText(location.offsetMinutes, "clock")}, time zone ${zone}`);
    }
  }
  out();
  out("To sync it:");
  out(`  export POS_API_URL=${simulator.url}`);
  out(`  export POS_API_KEYS=${simulator.keys.join(",")}`);
  if (values["auth-scheme"]) out(`  export POS_AUTH_SCHEME=${values["auth-scheme"]}`);
  out();
  out("Stop with Ctrl-C.");

  let catalogHidden = false;
  const churn = () => {
    const updates = dataset.applyLateUpdates(3);
    if (catalogHidden) dataset.restoreCatalogItems();
    else
      for (const location of dataset.locations)
        dataset.hideCatalogItems(location, CATALOG_KINDS, 1);
    catalogHidden = !catalogHidden;
    logger.info(
      { lateUpdates: updates.length, catalogHidden },
      "changed recent orders and the catalog",
    );
  };
  const timer =
    lateUpdatesEvery === undefined ? undefined : setInterval(churn, lateUpdatesEvery * 1000);

  const driftAfter = integerFlag(values["drift-after"], "drift-after", { min: 0, max: 86_400 });
  const driftShare = fractionFlag(values["drift-share"], "drift-share") ?? 0.01;
  const drift = () => {
    const drifts = dataset.driftPastDays(driftShare, DRIFT_OLDER_THAN_DAYS);
    logger.info(
      { drifts: drifts.length, days: drifts.map((d) => `${d.locationIndex}:${d.day}:${d.kind}`) },
      "history drifted",
    );
  };
  const driftTimer = driftAfter === undefined ? undefined : setTimeout(drift, driftAfter * 1000);

  const signal = await waitForSignal();
  if (timer) clearInterval(timer);
  if (driftTimer) clearTimeout(driftTimer);
  await simulator.close();
  logger.info({ signal }, "simulator stopped");
  return 0;
}

export const simulateCommand: Command = {
  name: "simulate",
  help: HELP,
  run,
};
