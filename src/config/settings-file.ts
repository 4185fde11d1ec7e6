/**
 * The JSON settings file of `--config`: read no further than a settings file can be, checked
 * against the settings it may hold, each wrong value named by its key. config.ts merges what it
 * gives with the environment and the flags.
 */
import { z } from "zod";
import type { ApiPaths } from "../api/paths.js";
import { ConfigError } from "../errors.js";
import { readBounded } from "../read-bounded.js";
import { type RawValues, SETTINGS, type Setting } from "./settings.js";

/** A location of the configuration: its key, and what a settings file may say of it. */
export interface LocationConfig {
  apiKey: string;
  /** A label for logs and status when the API's location has no name yet. */
  name?: string;
  /** The location's IANA time zone (canonical), for the hours of UTC timestamps; absent when
   * neither the location nor POS_TIME_ZONE sets one. */
  timeZone?: string;
}

/** Settings as they come from any source, before defaults and checks: the plain ones
 * (settings.ts), and those of another shape. */
export type RawSettings = RawValues & {
  /** Keys come from the environment or the file only: a flag would show them in `ps`. */
  apiKeys?: string[];
  locations?: LocationConfig[];
  paths?: Partial<ApiPaths>;
};

/** How a file's value that is not of its setting's kind is shown: 1e400 as Infinity. */
const shown = (value: unknown) =>
  typeof value === "number" ? String(value) : JSON.stringify(value);

/** A number or its text (checked against its bounds later, in the same words as the
 * environment's). */
const numeric = z
  .union([z.number(), z.string()], {
    error: (issue) => `must be a whole number, got ${shown(issue.input)}`,
  })
  .optional();

/** true or false, or its text. */
const yesNo = z
  .union([z.boolean(), z.string()], {
    error: (issue) => `must be true or false, got ${shown(issue.input)}`,
  })
  .optional();

/** What the file may hold for a plain setting, by its kind. */
const OF_KIND = { text: z.string().optional(), "whole number": numeric, "yes/no": yesNo } as const;

const fileSchema = z.strictObject({
  ...Object.fromEntries(
    Object.entries(SETTINGS).map(([key, setting]: [string, Setting]) => [
      key,
      OF_KIND[setting.kind],
    ]),
  ),
  apiKeys: z.array(z.string()).optional(),
  locations: z
    .array(
      z.strictObject({
        apiKey: z.string(),
        name: z.string().optional(),
        timeZone: z.string().optional(),
      }),
    )
    .optional(),
  paths: z
    .strictObject({
      report: z.string().optional(),
      paymentMethods: z.string().optional(),
      taxes: z.string().optional(),
      health: z.string().optional(),
    })
    .optional(),
});

/** A config file larger than this is not one: a device (/dev/zero, /dev/urandom) or a mistake. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** The file's text, read no further than MAX_CONFIG_BYTES (read-bounded.ts). */
function readConfigText(path: string): string {
  const bytes = readBounded(path, MAX_CONFIG_BYTES);
  if (bytes.length > MAX_CONFIG_BYTES)
    throw new ConfigError(`the config file ${path} is larger than 1 MB: it is not a settings file`);
  return bytes.toString("utf8");
}

/** The settings a JSON config file gives; unknown settings are refused, so typos show. */
export function settingsFromFile(path: string): RawSettings {
  let text: string;
  try {
    text = readConfigText(path);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as { code?: string }).code ?? "unreadable";
    throw new ConfigError(`cannot read the config file ${path} (${code})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(`the config file ${path} is not valid JSON`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "(top level)";
    const what =
      issue?.code === "unrecognized_keys"
        ? `unknown setting ${issue.keys.join(", ")}`
        : issue?.message;
    throw new ConfigError(`the config file ${path}: ${where}: ${what}`);
  }
  return dropUndefined(parsed.data) as RawSettings;
}

/** The object without its undefined values. */
export function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
