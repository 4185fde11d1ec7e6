/** `pos-sync status --html FILE`: the daemon's status page as one file, for a job that mails it. */
import type { ReadableDestination } from "../db/destination.js";
import { collectStatusPage } from "../read-models/status-page.js";
import { renderStatusPage } from "../ui/status-page/page.js";
import { writeWhole } from "./write-whole.js";

/** Writes the page; answers the number of bytes written. */
export async function writeStatusPageFile(
  destination: ReadableDestination,
  schedule: string,
  file: string,
): Promise<number> {
  const data = await collectStatusPage(destination, { schedule });
  // No refresh: a file in a mailbox does not change.
  const html = renderStatusPage(data);
  writeWhole(file, html, "the status page");
  return Buffer.byteLength(html);
}
