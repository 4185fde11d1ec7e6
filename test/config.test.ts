/** Configuration from the environment, a JSON file and flags, checked at the edge. */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import { SETTINGS, type Setting } from "../src/config/settings.js";
import { ConfigError } from "../src/errors.js";
import { useTempDir } from "./helpers/db.js";

const tempPath = useTempDir();
const base = { POS_API_URL: "https://pos.example/api/", POS_API_KEY: "secret_key_1234567890" };

function configFile(content: unknown): string {
  const path = tempPath().replace(/\.sqlite$/, ".json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

describe("the table of settings", () => {
  it("is what docs/connecting.md documents: every variable, with its default", () => {
    const guide = readFileSync(new URL("../docs/connecting.md", import.meta.url), "utf8");
    const rows = guide.split("\n").filter((line) => line.startsWith("| `"));
    const undocumented: string[] = [];
    for (const setting of Object.values(SETTINGS) as Setting[]) {
      const row = rows.find((line) => line.split("|")[1]?.includes(`\`${setting.env}\``));
      const shown =
        setting.default === undefined || setting.default === ""
          ? undefined
          : String(setting.default);
      if (!row || (shown !== undefined && !row.split("|")[2]?.includes(shown)))
        undocumented.push(`${setting.env} (default ${shown ?? "none"})`);
    }
    expect(undocumented).toEqual([]);
  });

  it("gives every setting its default when no source sets it", () => {
    const config = loadConfig({ env: base, needsApi: true });
    for (const [key, setting] of Object.entries(SETTINGS) as [string, Setting][]) {
      const field = key === "orderHistory" ? "keepHistory" : key;
      if (setting.default !== undefined && !["dbSchema", "reportAt"].includes(key))
        expect(config[field as keyof typeof config], key).toEqual(setting.default);
    }
    // An hour of the day, kept as minutes after midnight.
    expect(config.messages.atMinutes).toBe(7 * 60);
  });
});

describe("defaults and sources", () => {
  it("applies the documented defaults", () => {
    const config = loadConfig({ env: base, needsApi: true });
    expect(config).toMatchObject({
      apiUrl: "https://pos.example/api",
      locations: [{ apiKey: "secret_key_1234567890" }],
      dbPath: "data/pos.sqlite",
      authScheme: "",
      startDate: undefined,
      lookbackDays: 3,
      concurrency: 4,
      schedule: "*/15 * * * *",
      logLevel: "info",
      keepRaw: true,
      keepHistory: true,
      paths: {
        report: "/v1/reports/{id}",
        paymentMethods: "/v1/catalog/payment-methods/",
        taxes: "/v1/catalog/taxes/",
        health: "/health",
      },
    });
  });

  it("switches the raw archive off with POS_KEEP_RAW or the file, and refuses what is not yes or no", () => {
    expect(loadConfig({ env: { ...base, POS_KEEP_RAW: "false" }, needsApi: true }).keepRaw).toBe(
      false,
    );
    expect(loadConfig({ env: { ...base, POS_KEEP_RAW: "ON" }, needsApi: true }).keepRaw).toBe(true);
    const file = configFile({ keepRaw: false });
    expect(loadConfig({ env: base, configFile: file, needsApi: true }).keepRaw).toBe(false);
    expect(() => loadConfig({ env: { ...base, POS_KEEP_RAW: "maybe" }, needsApi: true })).toThrow(
      'POS_KEEP_RAW must be true or false, got "maybe"',
    );
  });

  it("switches order history off with POS_ORDER_HISTORY or the file, and refuses what is not yes or no", () => {
    const history = (env: Record<string, string>, file?: string) =>
      loadConfig({
        env: { ...base, ...env },
        needsApi: true,
        ...(file ? { configFile: file } : {}),
      }).keepHistory;
    expect(history({ POS_ORDER_HISTORY: "false" })).toBe(false);
    expect(history({ POS_ORDER_HISTORY: "yes" })).toBe(true);
    expect(history({}, configFile({ orderHistory: false }))).toBe(false);
    expect(() => history({ POS_ORDER_HISTORY: "sometimes" })).toThrow(
      'POS_ORDER_HISTORY must be true or false, got "sometimes"',
    );
  });

  it("reads several keys from POS_API_KEYS", () => {
    const config = loadConfig({
      env: { ...base, POS_API_KEYS: "key_a_123456, key_b_123456" },
      needsApi: true,
    });
    expect(config.locations).toEqual([{ apiKey: "key_a_123456" }, { apiKey: "key_b_123456" }]);
  });

  it("takes locations from a config file, with the environment and then flags winning", () => {
    const file = configFile({
      apiUrl: "https://file.example",
      locations: [{ apiKey: "file_key_123456", name: "Paris" }, { apiKey: "file_key_654321" }],
      lookbackDays: 7,
      concurrency: 2,
    });
    const fromFile = loadConfig({ env: {}, configFile: file, needsApi: true });
    expect(fromFile).toMatchObject({
      apiUrl: "https://file.example",
      lookbackDays: 7,
      concurrency: 2,
    });
    expect(fromFile.locations).toHaveLength(2);
    const withEnv = loadConfig({
      env: { POS_LOOKBACK_DAYS: "5" },
      configFile: file,
      needsApi: true,
      flags: { concurrency: 8 },
    });
    expect(withEnv).toMatchObject({ lookbackDays: 5, concurrency: 8 });
    expect(withEnv.locations[0]?.name).toBe("Paris");
  });

  it("says when keys in the environment replace the config file's locations, and only then", () => {
    const file = configFile({
      apiUrl: "https://file.example",
      locations: [{ apiKey: "file_key_123456", name: "Paris" }, { apiKey: "file_key_654321" }],
    });
    const replaced = loadConfig({
      env: { POS_API_KEY: "env_key_123456" },
      configFile: file,
      needsApi: true,
    });
    expect(replaced.locations).toEqual([{ apiKey: "env_key_123456" }]);
    expect(replaced.notices).toEqual([
      `the API keys in the environment (POS_API_KEY/POS_API_KEYS) replace the 2 location(s) of ${file}: unset them to use the file's`,
    ]);
    expect(JSON.stringify(replaced.notices)).not.toContain("env_key_123456");
    expect(loadConfig({ env: {}, configFile: file, needsApi: true }).notices).toEqual([]);
    expect(loadConfig({ env: base, needsApi: true }).notices).toEqual([]);
  });

  it("gives every location POS_TIME_ZONE, canonical, unless the file gives it its own", () => {
    const fromEnv = loadConfig({
      env: { ...base, POS_TIME_ZONE: "europe/paris" },
      needsApi: true,
    });
    expect(fromEnv.locations).toEqual([
      { apiKey: "secret_key_1234567890", timeZone: "Europe/Paris" },
    ]);
    expect(loadConfig({ env: base, needsApi: true }).locations[0]).not.toHaveProperty("timeZone");
    const file = configFile({
      apiUrl: "https://pos.example",
      timeZone: "America/New_York",
      locations: [
        { apiKey: "key_paris_123", timeZone: "Europe/Paris" },
        { apiKey: "key_boston_123" },
      ],
    });
    const fromFile = loadConfig({ env: {}, configFile: file, needsApi: true });
    expect(fromFile.locations.map((l) => l.timeZone)).toEqual(["Europe/Paris", "America/New_York"]);
    const flagged = loadConfig({
      env: {},
      configFile: file,
      flags: { timeZone: "Asia/Kolkata" },
      needsApi: true,
    });
    expect(flagged.locations.map((l) => l.timeZone)).toEqual(["Europe/Paris", "Asia/Kolkata"]);
  });

  it("moves the unshown paths with POS_PATH_*", () => {
    const config = loadConfig({
      env: { ...base, POS_PATH_TAXES: "/v2/taxes", POS_PATH_REPORT: "/v1/report/{id}" },
      needsApi: true,
    });
    expect(config.paths).toMatchObject({ taxes: "/v2/taxes", report: "/v1/report/{id}" });
  });
});

describe("refusals", () => {
  it.each([
    [{ POS_API_KEY: "k_123456" }, "POS_API_URL is required"],
    [{ POS_API_URL: "https://x.example" }, "an API key is required"],
    [{ ...base, POS_API_URL: "ftp://x.example" }, "must start with http:// or https://"],
    [{ ...base, POS_API_URL: "not a url" }, "POS_API_URL is not a valid address"],
    [
      { ...base, POS_LOOKBACK_DAYS: "-1" },
      "lookback (POS_LOOKBACK_DAYS) must be a whole number from 0",
    ],
    [
      { ...base, POS_CONCURRENCY: "0" },
      "concurrency (POS_CONCURRENCY) must be a whole number from 1 to 64",
    ],
    [{ ...base, POS_START_DATE: "2026-02-30" }, "POS_START_DATE must be a calendar date"],
    [{ ...base, LOG_LEVEL: "loud" }, "LOG_LEVEL must be one of"],
    [{ ...base, POS_PATH_REPORT: "/v1/reports/" }, 'POS_PATH_REPORT must contain "{id}"'],
    [{ ...base, POS_API_KEYS: "same_key_1, same_key_1" }, "the same API key is listed twice"],
    [
      { ...base, POS_TIME_ZONE: "Paris" },
      'POS_TIME_ZONE must be an IANA time zone such as Europe/Paris or America/New_York, got "Paris"',
    ],
  ])("refuses %j with a clear message", (env, message) => {
    expect(() => loadConfig({ env, needsApi: true })).toThrow(ConfigError);
    expect(() => loadConfig({ env, needsApi: true })).toThrow(message);
  });

  it("never puts a key in a message", () => {
    try {
      loadConfig({
        env: { POS_API_URL: "https://x.example", POS_API_KEYS: "good_key_1, bad key with spaces" },
        needsApi: true,
      });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe("API key number 2 is empty or contains spaces");
    }
  });

  it("names the location whose time zone in the file is unknown", () => {
    const file = configFile({
      apiUrl: "https://pos.example",
      locations: [{ apiKey: "key_one_123" }, { apiKey: "key_two_123", timeZone: "Mars/Olympus" }],
    });
    expect(() => loadConfig({ env: {}, configFile: file, needsApi: true })).toThrow(
      'the time zone of location 2 must be an IANA time zone such as Europe/Paris or America/New_York, got "Mars/Olympus"',
    );
  });

  it("refuses a config file that is missing, not JSON, or has unknown settings", () => {
    expect(() =>
      loadConfig({ env: {}, configFile: "/nonexistent/pos.json", needsApi: false }),
    ).toThrow("cannot read the config file");
    expect(() => loadConfig({ env: {}, configFile: configFile("{oops"), needsApi: false })).toThrow(
      "is not valid JSON",
    );
    expect(() =>
      loadConfig({ env: {}, configFile: configFile({ lookback: 3 }), needsApi: false }),
    ).toThrow("unknown setting lookback");
  });

  it("names the file's key, not the environment's variable, for a bad value the file gave", () => {
    const refusal = (content: unknown, env: Record<string, string> = {}) => {
      const file = configFile(content);
      try {
        loadConfig({ env, configFile: file, needsApi: false });
        return "accepted";
      } catch (error) {
        return (error as Error).message.replace(file, "FILE");
      }
    };
    expect(refusal({ lookbackDays: -2 })).toBe(
      'the lookback ("lookbackDays" in FILE) must be a whole number from 0 to 3650, got "-2"',
    );
    expect(refusal({ keepRaw: "maybe" })).toBe(
      '"keepRaw" in FILE must be true or false, got "maybe"',
    );
    expect(refusal({ startDate: "tomorrow" })).toBe(
      '"startDate" in FILE must be a calendar date YYYY-MM-DD, got "tomorrow"',
    );
    // A value of no setting's kind: JSON's 1e400 is Infinity once read.
    expect(refusal('{ "auditPeriodDays": 1e400 }')).toBe(
      "the config file FILE: auditPeriodDays: must be a whole number, got Infinity",
    );
    expect(refusal({ concurrency: null })).toBe(
      "the config file FILE: concurrency: must be a whole number, got null",
    );
    expect(refusal({ orderHistory: 1 })).toBe(
      "the config file FILE: orderHistory: must be true or false, got 1",
    );
    // The environment's value wins, and is named so.
    expect(refusal({ lookbackDays: 2 }, { POS_LOOKBACK_DAYS: "-1" })).toBe(
      'the lookback (POS_LOOKBACK_DAYS) must be a whole number from 0 to 3650, got "-1"',
    );
  });

  it("refuses a device or an oversized file in one line, and reads a pipe", () => {
    for (const device of ["/dev/zero", "/dev/urandom"])
      expect(() => loadConfig({ env: {}, configFile: device, needsApi: false })).toThrow(
        `the config file ${device} is larger than 1 MB: it is not a settings file`,
      );
    // As `--config <(…)` hands it over: a pipe, whose size no stat tells.
    const fifo = `${configFile({})}.fifo`;
    execFileSync("mkfifo", [fifo]);
    const writer = spawn("sh", ["-c", `cat ${configFile({ lookbackDays: 5 })} > ${fifo}`]);
    expect(loadConfig({ env: {}, configFile: fifo, needsApi: false }).lookbackDays).toBe(5);
    writer.kill();
  });

  it("needs no API settings for commands that only read the database", () => {
    expect(loadConfig({ env: {}, needsApi: false }).dbPath).toBe("data/pos.sqlite");
  });
});

describe("the destination", () => {
  const url = "postgres://pos:s3cret-pw@127.0.0.1:5432/analytics";

  it("is PostgreSQL when POS_DB_URL is a postgres:// address, in the schema pos unless set", () => {
    expect(loadConfig({ env: { POS_DB_URL: url }, needsApi: false }).postgres).toEqual({
      url,
      schema: "pos",
    });
    const other = loadConfig({ env: { POS_DB_URL: url, POS_DB_SCHEMA: "sales" }, needsApi: false });
    expect(other.postgres?.schema).toBe("sales");
  });

  it("stays SQLite for a path, sqlite:PATH, or nothing at all", () => {
    expect(loadConfig({ env: {}, needsApi: false })).toMatchObject({
      dbPath: "data/pos.sqlite",
      postgres: undefined,
    });
    const byUrl = loadConfig({ env: { POS_DB_URL: "sqlite:data/x.sqlite" }, needsApi: false });
    expect(byUrl).toMatchObject({ dbPath: "data/x.sqlite", postgres: undefined });
  });

  it("takes the first source that names one: flags, then the environment, then the file", () => {
    const file = configFile({ dbUrl: url });
    expect(loadConfig({ env: {}, configFile: file, needsApi: false }).postgres?.url).toBe(url);
    const envPath = loadConfig({
      env: { POS_DB_PATH: "here.sqlite" },
      configFile: file,
      needsApi: false,
    });
    expect(envPath).toMatchObject({ dbPath: "here.sqlite", postgres: undefined });
    const flagPath = loadConfig({
      env: { POS_DB_URL: url },
      flags: { dbPath: "flag.sqlite" },
      needsApi: false,
    });
    expect(flagPath).toMatchObject({ dbPath: "flag.sqlite", postgres: undefined });
  });

  it("takes the address over a path given beside it, and says the file is not used", () => {
    const config = loadConfig({
      env: { POS_DB_URL: url, POS_DB_PATH: "x.sqlite" },
      needsApi: false,
    });
    expect(config.postgres?.url).toBe(url);
    expect(config.notices).toContain(
      "POS_DB_URL names PostgreSQL: the file x.sqlite (POS_DB_PATH) is not used",
    );
  });

  it("refuses another scheme, an address without a database, and a bad schema, never showing the password", () => {
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig({ env, needsApi: false });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as Error).message).not.toContain("s3cret-pw");
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refused({ POS_DB_URL: "mysql://x@h/db" })).toMatch(/must start with postgres:\/\//);
    expect(refused({ POS_DB_URL: "postgres://pos:s3cret-pw@127.0.0.1:5432" })).toMatch(
      /must name a server and a database.*postgres:\/\/pos@127\.0\.0\.1:5432$/,
    );
    expect(refused({ POS_DB_URL: url, POS_DB_SCHEMA: "Sales" })).toMatch(/lower-case name/);
  });
});
