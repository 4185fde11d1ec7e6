/**
 * A SQLite destination served across a message port, as a sync in a worker thread writes to it
 * (runner/remote-destination.ts): both ends in this thread, the messages structured copies all
 * the same.
 */
import { MessageChannel } from "node:worker_threads";
import type { SyncDestination } from "../../src/db/destination.js";
import type { SqliteDestination } from "../../src/db/sqlite/destination.js";
import {
  connectDestination,
  methodsOf,
  serveDestination,
} from "../../src/runner/remote-destination.js";

/** `destination` is the sync's side; `close` commits what is in hand and lets go of the port,
 * leaving the SQLite destination open, as the command's thread does. */
export function acrossPort(local: SqliteDestination): {
  destination: SyncDestination;
  close(): Promise<void>;
} {
  const { port1, port2 } = new MessageChannel();
  const service = serveDestination(port1, local, () => local.commit());
  const destination = connectDestination(port2, {
    where: local.where,
    methods: methodsOf(local),
  });
  return { destination, close: () => service.close() };
}
