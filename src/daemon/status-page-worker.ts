/**
 * A worker thread's entry: renders the status page through a read-only connection of its own,
 * answers the HTML and ends. See status-page-thread.ts for why a thread.
 */
import { parentPort, workerData } from "node:worker_threads";
import { databaseFor } from "../db/choose.js";
import { messageOf } from "../errors.js";
import { collectStatusPage } from "../read-models/status-page.js";
import { renderStatusPage } from "../ui/status-page/page.js";
import type { StatusPageAnswer, StatusPageRequest } from "./status-page-thread.js";

async function render(data: StatusPageRequest): Promise<string> {
  // The daemon that asks holds the database migrated: no need to check it again.
  const database = await databaseFor(data.database);
  const destination = await database.openReader(data.database, { trusted: true });
  try {
    const page = await collectStatusPage(destination, {
      schedule: data.schedule,
      now: new Date(data.now),
    });
    return renderStatusPage(page, { refreshSeconds: data.refreshSeconds });
  } finally {
    await destination.close();
  }
}

render(workerData as StatusPageRequest).then(
  (html) => parentPort?.postMessage({ type: "page", html } satisfies StatusPageAnswer),
  (error: unknown) =>
    parentPort?.postMessage({
      type: "failed",
      message: messageOf(error),
    } satisfies StatusPageAnswer),
);
