/**
 * `probe --write-config FILE`: the findings as a config file that `--config` reads. An existing
 * file is updated in place (its keys, locations and other settings kept); only what the probe
 * observed is written, and never a key.
 */
import { existsSync, readFileSync } from "node:fs";
import { type ApiPaths, PATH_SETTINGS } from "../api/paths.js";
import { settingsFromFile } from "../config/settings-file.js";
import type { ProbeFindings } from "./findings.js";

export interface ConfigUpdate {
  /** The JSON text to write. */
  text: string;
  /** The settings written, as "POS_AUTH_SCHEME=Bearer". */
  written: string[];
  /** Settings left as they were: not determined, or only inferred. */
  leftAlone: string[];
}

function existingSettings(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  // Validated first: a file the sync would refuse is not silently rewritten. Then kept as the
  // user wrote it, not as the schema returns it (which may leave out what it does not know).
  settingsFromFile(file);
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
}

/** The file's new content: pure but for reading the existing file. */
export function configUpdate(file: string, report: ProbeFindings): ConfigUpdate {
  const settings = existingSettings(file);
  const paths: Partial<ApiPaths> = { ...(settings.paths as Partial<ApiPaths> | undefined) };
  const written: string[] = [];
  const leftAlone: string[] = [];
  settings.apiUrl = report.apiUrl;
  for (const finding of report.settings) {
    if (finding.value === null || finding.certainty !== "observed") {
      leftAlone.push(finding.name);
      continue;
    }
    written.push(`${finding.name}=${finding.value}`);
    if (finding.name === "POS_AUTH_SCHEME") settings.authScheme = finding.value;
    const operation = (Object.keys(PATH_SETTINGS) as (keyof ApiPaths)[]).find(
      (key) => PATH_SETTINGS[key] === finding.name,
    );
    if (operation) paths[operation] = finding.value;
  }
  if (Object.keys(paths).length > 0) settings.paths = paths;
  return { text: `${JSON.stringify(settings, null, 2)}\n`, written, leftAlone };
}
