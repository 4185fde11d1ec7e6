/**
 * Every plain setting, declared once: its key (in the `--config` file and in Config), its
 * environment variable, the kind of value it takes with its bounds, its default, and what it is.
 * The environment's reader, the file's checks, the bounds the flags check, the defaults and the
 * messages all follow from this table, and test/config.test.ts holds docs/connecting.md's table
 * to it. Settings of another shape (the API keys and locations, the API's paths) are config.ts's.
 */

interface Described {
  /** The environment variable. */
  env: string;
  /** How a message names it: "the lookback (POS_LOOKBACK_DAYS) must be …". */
  what: string;
}

export interface TextSetting extends Described {
  kind: "text";
  default?: string;
  /** An empty value is a value (an empty auth scheme sends the bare key), not an absent one. */
  blankAllowed?: boolean;
}

export interface WholeNumberSetting extends Described {
  kind: "whole number";
  min: number;
  max: number;
  default?: number;
}

export interface YesNoSetting extends Described {
  kind: "yes/no";
  default: boolean;
}

export type Setting = TextSetting | WholeNumberSetting | YesNoSetting;

export const SETTINGS = {
  apiUrl: { env: "POS_API_URL", kind: "text", what: "the API's address" },
  dbPath: {
    env: "POS_DB_PATH",
    kind: "text",
    what: "the database file",
    default: "data/pos.sqlite",
  },
  dbUrl: { env: "POS_DB_URL", kind: "text", what: "the database's address" },
  dbSchema: { env: "POS_DB_SCHEMA", kind: "text", what: "the PostgreSQL schema", default: "pos" },
  authScheme: {
    env: "POS_AUTH_SCHEME",
    kind: "text",
    what: "the authorization scheme",
    default: "",
    blankAllowed: true,
  },
  startDate: { env: "POS_START_DATE", kind: "text", what: "the start date" },
  lookbackDays: {
    env: "POS_LOOKBACK_DAYS",
    kind: "whole number",
    what: "the lookback",
    min: 0,
    max: 3650,
    default: 3,
  },
  concurrency: {
    env: "POS_CONCURRENCY",
    kind: "whole number",
    what: "the concurrency",
    min: 1,
    max: 64,
    default: 4,
  },
  schedule: { env: "POS_SCHEDULE", kind: "text", what: "the schedule", default: "*/15 * * * *" },
  logLevel: { env: "LOG_LEVEL", kind: "text", what: "the log level", default: "info" },
  httpPort: {
    env: "POS_HTTP_PORT",
    kind: "whole number",
    what: "the HTTP port",
    min: 0,
    max: 65_535,
  },
  httpHost: { env: "POS_HTTP_HOST", kind: "text", what: "the HTTP host", default: "127.0.0.1" },
  httpToken: { env: "POS_HTTP_TOKEN", kind: "text", what: "the status page's token" },
  memoryMb: {
    env: "POS_MEMORY_MB",
    kind: "whole number",
    what: "the memory ceiling",
    min: 64,
    max: 65_536,
    default: 192,
  },
  keepRaw: { env: "POS_KEEP_RAW", kind: "yes/no", what: "keeping raw JSON", default: true },
  orderHistory: {
    env: "POS_ORDER_HISTORY",
    kind: "yes/no",
    what: "keeping order history",
    default: true,
  },
  timeZone: { env: "POS_TIME_ZONE", kind: "text", what: "the time zone" },
  auditPeriodDays: {
    env: "POS_AUDIT_PERIOD_DAYS",
    kind: "whole number",
    what: "the audit period",
    min: 0,
    max: 3650,
    default: 30,
  },
  reportSmtpUrl: { env: "POS_REPORT_SMTP_URL", kind: "text", what: "the report's mail server" },
  reportSmtpCa: {
    env: "POS_REPORT_SMTP_CA",
    kind: "text",
    what: "the certificate trusted for the mail server",
  },
  reportFrom: { env: "POS_REPORT_FROM", kind: "text", what: "the report's sender" },
  reportTo: { env: "POS_REPORT_TO", kind: "text", what: "the report's recipients" },
  reportWebhookUrl: { env: "POS_REPORT_WEBHOOK_URL", kind: "text", what: "the report's webhook" },
  reportAt: {
    env: "POS_REPORT_AT",
    kind: "text",
    what: "the report's hour",
    default: "07:00",
  },
  auditRequests: {
    env: "POS_AUDIT_REQUESTS",
    kind: "whole number",
    what: "the audit's requests",
    min: 1,
    max: 1_000_000,
    default: 4,
  },
} as const satisfies Record<string, Setting>;

export type SettingKey = keyof typeof SETTINGS;

type KeysOfKind<Kind extends Setting["kind"]> = {
  [K in SettingKey]: (typeof SETTINGS)[K]["kind"] extends Kind ? K : never;
}[SettingKey];

export type TextKey = KeysOfKind<"text">;
export type WholeNumberKey = KeysOfKind<"whole number">;
export type YesNoKey = KeysOfKind<"yes/no">;

/** A setting's value as a source gives it, before it is checked: a file may give a number or
 * a yes/no as JSON or as text, the environment as text. */
export type RawValues = { [K in TextKey]?: string } & {
  [K in WholeNumberKey]?: number | string;
} & { [K in YesNoKey]?: boolean | string };

function present(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** The plain settings the environment gives. */
export function valuesFromEnv(env: NodeJS.ProcessEnv): RawValues {
  const values: Record<string, string> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [SettingKey, Setting][]) {
    const raw = env[setting.env];
    const value = setting.kind === "text" && setting.blankAllowed ? raw?.trim() : present(raw);
    if (value !== undefined) values[key] = value;
  }
  return values;
}
