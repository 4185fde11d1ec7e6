/** The tests that run the built command line stop when the build is older than its sources. */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { staleBuild } from "./helpers/built-cli-setup.js";
import { useTempDir } from "./helpers/db.js";

const tempPath = useTempDir();

/** A source tree and a build, each file at the second given (seconds since the epoch). */
function tree(sourceAt: number, builtAt: number | null) {
  const root = tempPath();
  const sources = join(root, "src", "db");
  mkdirSync(sources, { recursive: true });
  const source = join(sources, "reader.ts");
  writeFileSync(source, "export {};\n");
  utimesSync(source, sourceAt, sourceAt);
  const built = join(root, "cli.js");
  if (builtAt !== null) {
    writeFileSync(built, "");
    utimesSync(built, builtAt, builtAt);
  }
  return { sources: join(root, "src"), source, built };
}

describe("a build tested against its sources", () => {
  it("passes when it is newer than every source", () => {
    const { sources, built } = tree(1_000, 2_000);
    expect(staleBuild(sources, built)).toBeUndefined();
  });

  it("stops, naming the newer source, when a source changed after it", () => {
    const { sources, source, built } = tree(3_000, 2_000);
    expect(staleBuild(sources, built)).toBe(
      `${source} changed after the last build (dist/bin): run npm run build, or npm test, which builds first`,
    );
  });

  it("stops when there is none", () => {
    const { sources, built } = tree(1_000, null);
    expect(staleBuild(sources, built)).toBe(
      `${built} is missing: run npm run build (npm test builds first)`,
    );
  });
});
