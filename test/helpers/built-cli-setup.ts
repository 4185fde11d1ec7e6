/**
 * Vitest's global setup for the test files that run the built command line (dist/bin, as it
 * ships): a build older than the sources would test yesterday's code and pass. `npm test` builds
 * first; `npx vitest run FILE` does not, so the run stops here, naming the newer source.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { CLI_PATH } from "./cli.js";

/** The newest file under a folder, and when it changed. */
function newest(folder: string): { path: string; at: number } {
  let found = { path: folder, at: 0 };
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const at = statSync(path).mtimeMs;
    if (at > found.at) found = { path, at };
  }
  return found;
}

/** Why the build at `built` cannot be tested against the sources under `sources`: missing, or
 * older than a source; undefined when it is current. */
export function staleBuild(sources: string, built: string): string | undefined {
  let builtAt: number;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    return `${built} is missing: run npm run build (npm test builds first)`;
  }
  const source = newest(sources);
  if (source.at > builtAt)
    return `${source.path} changed after the last build (dist/bin): run npm run build, or npm test, which builds first`;
  return undefined;
}

export default function setup(): void {
  const stale = staleBuild("src", CLI_PATH);
  if (stale) throw new Error(stale);
}
