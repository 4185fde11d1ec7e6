/**
 * The settings docs/scaling.md gives a BI tool's role (`ALTER ROLE bi_reader SET …`), as the `SET`
 * statements of a session: the benchmarks and the tests read as that role does, from the guide
 * itself, so that what they measure is what a reader set up by the guide gets.
 */
import { readFileSync } from "node:fs";
import { packagePath } from "../src/package-root.js";

export function biRoleSettings(): string[] {
  const guide = readFileSync(packagePath("docs", "scaling.md"), "utf8");
  const settings = [...guide.matchAll(/^ALTER ROLE bi_reader SET (\w+ = \w+);$/gm)].map(
    (match) => `SET ${match[1]}`,
  );
  if (settings.length === 0) throw new Error("docs/scaling.md gives the BI role no setting");
  return settings;
}
