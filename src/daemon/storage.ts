/**
 * What the daemon holds of its database between runs (db/database.ts: SQLite's connection with
 * its writer lease and WAL upkeep, or PostgreSQL's reader, where per-location turns replace the
 * lease so that several daemons share one database), and how its status page is read: on a
 * thread of its own where the database says so (status-page-thread.ts), else through its reader.
 */

import type { Config } from "../config/config.js";
import { databaseFor } from "../db/choose.js";
import type { DaemonHold, DaemonHoldOptions } from "../db/database.js";
import { collectStatusPage } from "../read-models/status-page.js";
import { renderStatusPage } from "../ui/status-page/page.js";
import { renderStatusPageInThread } from "./status-page-thread.js";

/** What the status page is rendered for. */
export interface PageRequest {
  schedule: string;
  now: Date;
  refreshSeconds: number;
}

export interface DaemonStorage extends DaemonHold {
  /** The status page, read without holding up the runs' writes. */
  renderStatusPage(request: PageRequest): Promise<string>;
}

export async function openDaemonStorage(
  config: Config,
  options: DaemonHoldOptions,
): Promise<DaemonStorage> {
  const database = await databaseFor(config);
  const hold = await database.holdForDaemon(config, options);
  const settings = { dbPath: config.dbPath, postgres: config.postgres };
  const onThread = database.capabilities.statusPageThread;
  return {
    name: hold.name,
    get lost() {
      return hold.lost;
    },
    beforeRun: () => hold.beforeRun(),
    afterRun: (failed) => hold.afterRun(failed),
    readable: () => hold.readable(),
    messages: () => hold.messages(),
    idle: () => hold.idle(),
    close: () => hold.close(),
    async renderStatusPage(request) {
      if (onThread)
        return renderStatusPageInThread({
          database: settings,
          schedule: request.schedule,
          now: request.now.toISOString(),
          refreshSeconds: request.refreshSeconds,
        });
      const page = await collectStatusPage(hold.readable(), request);
      return renderStatusPage(page, { refreshSeconds: request.refreshSeconds });
    },
  };
}
