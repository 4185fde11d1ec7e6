/** Writing a file whole: beside the target, then renamed over it, so that a reader (a mail job,
 * a sync reading its config) never sees half of it. */
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { ConfigError } from "../errors.js";

/** `what` names the content in the one-line error ("the status page"). */
export function writeWhole(file: string, text: string, what: string, mode?: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, mode === undefined ? {} : { mode });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    const code = (error as { code?: string }).code ?? "unwritable";
    throw new ConfigError(`cannot write ${what} to ${file} (${code})`);
  }
}
