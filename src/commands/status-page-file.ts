/** `pos-sync status --html FILE`: the daemon's status page as one file, for a job that mails it. */
import { type FilesInUse, STATUS_PAGE, writeOutputFile } from "../output-file.js";
import type { StatusReader } from "../read-models/status.js";
import { collectStatusPage } from "../read-models/status-page.js";
import { renderStatusPage } from "../ui/status-page/page.js";

/** Writes the page, never over a file `inUse` names or one of another kind (output-file.ts);
 * answers the number of bytes written. */
export async function writeStatusPageFile(
  destination: StatusReader,
  schedule: string,
  file: string,
  inUse: FilesInUse,
): Promise<number> {
  const data = await collectStatusPage(destination, { schedule });
  // No refresh: a file in a mailbox does not change.
  const html = renderStatusPage(data);
  writeOutputFile(file, html, STATUS_PAGE, inUse);
  return Buffer.byteLength(html);
}
