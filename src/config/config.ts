/**
 * Configuration: environment variables, an optional JSON file (`--config`, which may list several
 * locations) and command-line flags, in rising order of precedence. Every value is checked here,
 * and a bad one is a ConfigError that names the setting and what it takes, never its secret.
 */
import { type ApiPaths, DEFAULT_API_PATHS } from "../api/paths.js";
import { isCalendarDay } from "../clock/days.js";
import { canonicalTimeZone } from "../clock/zones.js";
import { ConfigError } from "../errors.js";
import { isLogLevel, type LogLevel } from "../log.js";
import type { Channels } from "./channel-addresses.js";
import { checkMailSettings, checkWebhookUrl, minutesOfDay } from "./channel-settings.js";
import {
  SETTINGS,
  type SettingKey,
  valuesFromEnv,
  type WholeNumberKey,
  type YesNoKey,
} from "./settings.js";
import {
  dropUndefined,
  type LocationConfig,
  type RawSettings,
  settingsFromFile,
} from "./settings-file.js";
import { readSmtpCa } from "./smtp-ca.js";

export type { LocationConfig, RawSettings };

/** A PostgreSQL destination: the server's address and the schema pos-sync's tables live in. */
export interface PostgresTarget {
  /** postgres://user:password@host:port/database, as given: it may hold a password. */
  url: string;
  schema: string;
}

export interface Config {
  /** What is worth telling about the settings, though they work (commands log it as warnings). */
  notices: string[];
  apiUrl: string;
  locations: LocationConfig[];
  /** The SQLite file, when `postgres` is not set. */
  dbPath: string;
  /** Set when the destination is PostgreSQL (POS_DB_URL, or a postgres:// --db). */
  postgres: PostgresTarget | undefined;
  authScheme: string;
  startDate: string | undefined;
  lookbackDays: number;
  concurrency: number;
  schedule: string;
  paths: ApiPaths;
  logLevel: LogLevel;
  httpPort: number | undefined;
  httpHost: string;
  /** Required of requests for the status page, when set (POS_HTTP_TOKEN); never of /healthz. */
  httpToken: string | undefined;
  /** Heap ceiling of a sync run, in MB (POS_MEMORY_MB). */
  memoryMb: number;
  /** Keep each record's JSON in the raw archive (POS_KEEP_RAW, `--no-raw`). */
  keepRaw: boolean;
  /** Keep the versions of changed and vanished orders (POS_ORDER_HISTORY, `--no-history`). */
  keepHistory: boolean;
  /** The daemon re-proves every stored day at least this often, in days; 0: no audit
   * (POS_AUDIT_PERIOD_DAYS). */
  auditPeriodDays: number;
  /** Requests the audit may make per location and run, for days not yet due (POS_AUDIT_REQUESTS). */
  auditRequests: number;
  /** Where the daemon's messages (the morning report, health alerts) and `report --send` go:
   * e-mail when POS_REPORT_SMTP_URL, POS_REPORT_FROM and POS_REPORT_TO are set (any one set asks
   * for all three, and so does POS_REPORT_SMTP_CA), a webhook at POS_REPORT_WEBHOOK_URL; and when
   * the morning report is due. */
  messages: Channels & {
    /** When the daemon sends it, in minutes after midnight on the locations' clocks
     * (POS_REPORT_AT, HH:MM). */
    atMinutes: number;
  };
}

export interface Bounds {
  min: number;
  max: number;
}

function present(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function splitKeys(value: string | undefined): string[] | undefined {
  const text = present(value);
  return text === undefined
    ? undefined
    : text
        .split(",")
        .map((k) => k.trim())
        .filter((k) => k !== "");
}

/** Shorter than this, a token is guessed in an afternoon of requests. */
const MIN_HTTP_TOKEN_LENGTH = 16;

function checkHttpToken(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  if (token.length < MIN_HTTP_TOKEN_LENGTH || /\s/.test(token)) {
    // The token itself is not repeated: it is a secret.
    throw new ConfigError(
      `POS_HTTP_TOKEN must be at least ${MIN_HTTP_TOKEN_LENGTH} characters without spaces ` +
        "(for example: openssl rand -hex 16)",
    );
  }
  return token;
}

/** The settings the environment gives. */
export function settingsFromEnv(env: NodeJS.ProcessEnv): RawSettings {
  const keys = splitKeys(env.POS_API_KEYS) ?? splitKeys(env.POS_API_KEY);
  const paths: Partial<ApiPaths> = {};
  const report = present(env.POS_PATH_REPORT);
  const paymentMethods = present(env.POS_PATH_PAYMENT_METHODS);
  const taxes = present(env.POS_PATH_TAXES);
  const health = present(env.POS_PATH_HEALTH);
  if (report) paths.report = report;
  if (paymentMethods) paths.paymentMethods = paymentMethods;
  if (taxes) paths.taxes = taxes;
  if (health) paths.health = health;
  return dropUndefined({
    ...valuesFromEnv(env),
    apiKeys: keys,
    paths: Object.keys(paths).length > 0 ? paths : undefined,
  });
}

/**
 * The whole number a setting or flag gives, if it is one within the bounds; undefined if not.
 * Callers say what went wrong, each in its own words.
 */
export function wholeNumberWithin(
  value: number | string,
  { min, max }: Bounds,
): number | undefined {
  const number =
    typeof value === "number" ? value : /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(number) && number >= min && number <= max ? number : undefined;
}

/** A whole-number setting, checked against its bounds (settings.ts); `name` is how messages
 * call it. */
function wholeNumberSetting(
  settings: RawSettings,
  key: WholeNumberKey,
  name: string,
): number | undefined {
  const value = settings[key];
  if (value === undefined) return undefined;
  const bounds = SETTINGS[key];
  const number = wholeNumberWithin(value, bounds);
  if (number === undefined) {
    throw new ConfigError(
      `${name} must be a whole number from ${bounds.min} to ${bounds.max}, got ${JSON.stringify(String(value))}`,
    );
  }
  return number;
}

/** A yes/no setting: true/false, yes/no, on/off or 1/0, in any case. */
function booleanSetting(value: boolean | string | undefined, name: string): boolean | undefined {
  if (value === undefined || typeof value === "boolean") return value;
  const word = value.trim().toLowerCase();
  if (["true", "yes", "on", "1"].includes(word)) return true;
  if (["false", "no", "off", "0"].includes(word)) return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

function checkUrl(value: string | undefined, required: boolean): string {
  if (value === undefined) {
    if (required)
      throw new ConfigError("POS_API_URL is required: the base address of the API (https://…)");
    return "";
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`POS_API_URL is not a valid address: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(
      `POS_API_URL must start with http:// or https://, got ${JSON.stringify(value)}`,
    );
  }
  if (url.username || url.password || url.search) {
    throw new ConfigError(
      "POS_API_URL must be a plain base address, without credentials or a query",
    );
  }
  return value.replace(/\/+$/, "");
}

/** Keys from the environment win over the file's; a file may list keys alone or locations. */
function pickLocations(fromEnv: RawSettings, fromFile: RawSettings): LocationConfig[] {
  if (fromEnv.apiKeys) return fromEnv.apiKeys.map((apiKey) => ({ apiKey }));
  if (fromFile.locations) return fromFile.locations;
  return (fromFile.apiKeys ?? []).map((apiKey) => ({ apiKey }));
}

/** Precedence that is documented but easy to miss: say so when it decides something. */
function settingNotices(
  fromEnv: RawSettings,
  fromFile: RawSettings,
  configFile: string | undefined,
): string[] {
  const fileLocations = fromFile.locations?.length ?? fromFile.apiKeys?.length ?? 0;
  if (!fromEnv.apiKeys || fileLocations === 0) return [];
  return [
    `the API keys in the environment (POS_API_KEY/POS_API_KEYS) replace the ${fileLocations} ` +
      `location(s) of ${configFile}: unset them to use the file's`,
  ];
}

function checkLocations(locations: LocationConfig[], required: boolean): LocationConfig[] {
  if (required && locations.length === 0) {
    throw new ConfigError(
      "an API key is required: set POS_API_KEY, or POS_API_KEYS for several locations",
    );
  }
  for (const [index, location] of locations.entries()) {
    // Keys never appear in messages: only their position.
    if (location.apiKey.trim() === "" || /\s/.test(location.apiKey.trim())) {
      throw new ConfigError(`API key number ${index + 1} is empty or contains spaces`);
    }
  }
  const unique = new Set(locations.map((l) => l.apiKey));
  if (unique.size !== locations.length) throw new ConfigError("the same API key is listed twice");
  return locations.map((l) => ({ ...l, apiKey: l.apiKey.trim() }));
}

/** A time zone setting as its canonical IANA name; `name` is how messages call the setting. */
function timeZoneSetting(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const zone = canonicalTimeZone(value);
  if (zone === undefined)
    throw new ConfigError(
      `${name} must be an IANA time zone such as Europe/Paris or America/New_York, got ${JSON.stringify(value)}`,
    );
  return zone;
}

/** Each location's time zone: its own in the config file, else the default (POS_TIME_ZONE). */
function withTimeZones(
  locations: LocationConfig[],
  defaultZone: string | undefined,
): LocationConfig[] {
  return locations.map((location, index) => {
    const own = timeZoneSetting(location.timeZone, `the time zone of location ${index + 1}`);
    const timeZone = own ?? defaultZone;
    const { timeZone: _given, ...rest } = location;
    return timeZone === undefined ? rest : { ...rest, timeZone };
  });
}

function checkPaths(paths: Partial<ApiPaths> | undefined): ApiPaths {
  const merged = { ...DEFAULT_API_PATHS, ...paths };
  for (const [name, path] of Object.entries(merged)) {
    if (!path.startsWith("/"))
      throw new ConfigError(
        `the path for ${name} must start with "/", got ${JSON.stringify(path)}`,
      );
  }
  if (!merged.report.includes("{id}")) throw new ConfigError('POS_PATH_REPORT must contain "{id}"');
  return merged;
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** How a `--db` value is read: a postgres:// address, or the path of a SQLite file. */
export function databaseFlag(value: string): Pick<RawSettings, "dbPath" | "dbUrl"> {
  return POSTGRES_URL.test(value) || value.startsWith("sqlite:")
    ? { dbUrl: value }
    : { dbPath: value };
}

/** A PostgreSQL address without its password, for messages. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : "";
    return `postgres://${user}${parsed.host}${parsed.pathname}`;
  } catch {
    return "postgres://(unreadable address)";
  }
}

function checkPostgresUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError("POS_DB_URL is not a valid postgres:// address");
  }
  if (!parsed.hostname || parsed.pathname.length <= 1) {
    throw new ConfigError(
      `POS_DB_URL must name a server and a database: postgres://user:password@host:5432/database, got ${describePostgresUrl(url)}`,
    );
  }
  return url;
}

/** PostgreSQL folds unquoted names to lower case: a lower-case name reads the same in every
 * BI tool, quoted or not. */
function checkSchema(schema: string): string {
  // 54 at most: its internal twin (pos_internal) must fit PostgreSQL's 63.
  if (!/^[a-z_][a-z0-9_]{0,53}$/.test(schema)) {
    throw new ConfigError(
      `POS_DB_SCHEMA must be a lower-case name of at most 54 letters, digits and _ (such as pos), got ${JSON.stringify(schema)}`,
    );
  }
  // The server keeps these (and the pg_ prefix) for itself: it would refuse the tables with a
  // "permission denied" that sends the user after a privilege instead of the setting.
  if (/^pg_/.test(schema) || schema === "information_schema") {
    throw new ConfigError(
      `POS_DB_SCHEMA ${schema} is a PostgreSQL system schema: choose a schema of your own (such as pos)`,
    );
  }
  return schema;
}

/**
 * The destination: the first source (flags, then environment, then file) that names one wins;
 * within one source an address wins over a file path (the Docker image sets POS_DB_PATH, and
 * POS_DB_URL beside it moves the data to PostgreSQL), which the notices say.
 */
function pickDatabase(
  levels: RawSettings[],
  schema: string | undefined,
): Pick<Config, "dbPath" | "postgres"> & { notice?: string } {
  for (const level of levels) {
    const url = level.dbUrl;
    if (url !== undefined && POSTGRES_URL.test(url)) {
      return {
        dbPath: SETTINGS.dbPath.default,
        postgres: {
          url: checkPostgresUrl(url),
          schema: checkSchema(schema ?? SETTINGS.dbSchema.default),
        },
        ...(level.dbPath === undefined
          ? {}
          : {
              notice: `POS_DB_URL names PostgreSQL: the file ${level.dbPath} (POS_DB_PATH) is not used`,
            }),
      };
    }
    if (url !== undefined && !url.startsWith("sqlite:")) {
      throw new ConfigError(
        "POS_DB_URL must start with postgres:// (PostgreSQL) or sqlite: (a SQLite file)",
      );
    }
    const path = url?.slice("sqlite:".length) ?? level.dbPath;
    if (path !== undefined) return { dbPath: path, postgres: undefined };
  }
  return { dbPath: SETTINGS.dbPath.default, postgres: undefined };
}

export interface LoadOptions {
  env: NodeJS.ProcessEnv;
  configFile?: string;
  /** Flags given on the command line; they win over everything. */
  flags?: RawSettings;
  /** Commands that call the API need its address and keys. */
  needsApi: boolean;
}

export function loadConfig(options: LoadOptions): Config {
  const fromFile = options.configFile ? settingsFromFile(options.configFile) : {};
  const fromEnv = settingsFromEnv(options.env);
  const flags = dropUndefined(options.flags ?? {});
  const settings: RawSettings = { ...fromFile, ...fromEnv, ...flags };
  /** Where a value came from, as a message names it: the file's key when the file gave it, else
   * the environment's variable (which a flag stands for). */
  const origin = (key: SettingKey) =>
    fromFile[key] !== undefined && fromEnv[key] === undefined && flags[key] === undefined
      ? `"${key}" in ${options.configFile}`
      : SETTINGS[key].env;
  const wholeNumber = (key: WholeNumberKey) =>
    wholeNumberSetting(settings, key, `${SETTINGS[key].what} (${origin(key)})`);
  const yesNo = (key: YesNoKey) =>
    booleanSetting(settings[key], origin(key)) ?? SETTINGS[key].default;
  const startDate = settings.startDate;
  if (startDate !== undefined && !isCalendarDay(startDate)) {
    throw new ConfigError(
      `${origin("startDate")} must be a calendar date YYYY-MM-DD, got ${JSON.stringify(startDate)}`,
    );
  }
  const logLevel = settings.logLevel ?? SETTINGS.logLevel.default;
  if (!isLogLevel(logLevel)) {
    throw new ConfigError(
      `${origin("logLevel")} must be one of fatal, error, warn, info, debug, trace, silent, got ${JSON.stringify(logLevel)}`,
    );
  }
  const { notice: databaseNotice, ...database } = pickDatabase(
    [dropUndefined(options.flags ?? {}), fromEnv, fromFile],
    settings.dbSchema,
  );
  return {
    notices: [
      ...settingNotices(fromEnv, fromFile, options.configFile),
      ...(databaseNotice ? [databaseNotice] : []),
    ],
    apiUrl: checkUrl(settings.apiUrl, options.needsApi),
    locations: withTimeZones(
      checkLocations(pickLocations(fromEnv, fromFile), options.needsApi),
      timeZoneSetting(settings.timeZone, origin("timeZone")),
    ),
    ...database,
    authScheme: settings.authScheme ?? SETTINGS.authScheme.default,
    startDate,
    lookbackDays: wholeNumber("lookbackDays") ?? SETTINGS.lookbackDays.default,
    concurrency: wholeNumber("concurrency") ?? SETTINGS.concurrency.default,
    schedule: settings.schedule ?? SETTINGS.schedule.default,
    paths: checkPaths(settings.paths),
    logLevel,
    httpPort: wholeNumber("httpPort"),
    httpHost: settings.httpHost ?? SETTINGS.httpHost.default,
    httpToken: checkHttpToken(settings.httpToken),
    memoryMb: wholeNumber("memoryMb") ?? SETTINGS.memoryMb.default,
    keepRaw: yesNo("keepRaw"),
    keepHistory: yesNo("orderHistory"),
    auditPeriodDays: wholeNumber("auditPeriodDays") ?? SETTINGS.auditPeriodDays.default,
    auditRequests: wholeNumber("auditRequests") ?? SETTINGS.auditRequests.default,
    messages: {
      mail:
        settings.reportSmtpUrl === undefined &&
        settings.reportFrom === undefined &&
        settings.reportTo === undefined &&
        settings.reportSmtpCa === undefined
          ? undefined
          : {
              ...checkMailSettings({
                smtpUrl: settings.reportSmtpUrl,
                from: settings.reportFrom,
                to: settings.reportTo,
              }),
              ...(settings.reportSmtpCa === undefined
                ? {}
                : { ca: readSmtpCa(settings.reportSmtpCa, origin("reportSmtpCa")) }),
            },
      webhookUrl:
        settings.reportWebhookUrl === undefined
          ? undefined
          : checkWebhookUrl(settings.reportWebhookUrl),
      atMinutes: minutesOfDay(settings.reportAt ?? SETTINGS.reportAt.default),
    },
  };
}
