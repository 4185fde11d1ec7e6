/** `pos-sync status --html FILE`: the daemon's status page as one file, for a job that mails it. */
import { renameSync, rmSync, writeFileSync } from "node:fs";
import type { ReadableDestination } from "../db/destination.js";
import { ConfigError } from "../errors.js";
import { collectStatusPage } from "../read-models/status-page.js";
import { renderStatusPage } from "../ui/status-page/page.js";

/** Written beside the target then renamed over it: a mail job never sends half a page. */
function writeWhole(file: string, html: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, html);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    const code = (error as { code?: string }).code ?? "unwritable";
    throw new ConfigError(`cannot write the status page to ${file} (${code})`);
  }
}

/** Writes the page; answers the number of bytes written. */
export async function writeStatusPageFile(
  destination: ReadableDestination,
  schedule: string,
  file: string,
): Promise<number> {
  const data = await collectStatusPage(destination, { schedule });
  // No refresh: a file in a mailbox does not change.
  const html = renderStatusPage(data);
  writeWhole(file, html);
  return Buffer.byteLength(html);
}
