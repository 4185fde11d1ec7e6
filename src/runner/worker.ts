/**
 * The worker thread that runs one sync: it reads the API and hands every write to the command's
 * thread, which holds the database (remote-destination.ts), and it reports progress and the
 * result to the command. Running here lets the command give the run a heap ceiling and write
 * while the run reads; the thread starts ahead of its run and waits for it (sync-worker.ts).
 */

import { parentPort } from "node:worker_threads";
import { pino } from "pino";
import type { Config } from "../config/config.js";
import { databaseFor } from "../db/choose.js";
import type { SyncDestination } from "../db/destination.js";
import { messageOf, PosSyncError } from "../errors.js";
import { createLogger } from "../log.js";
import type { Progress } from "../sync/progress.js";
import { runSync } from "../sync/run.js";
import { connectDestination } from "./remote-destination.js";
import type { FromWorker, ToWorker, WorkerInput, WorkerWrites } from "./worker-protocol.js";

type Port = NonNullable<typeof parentPort>;

/** The thread starts ahead of its run (sync-worker.ts) and waits for it. */
function waitForRun(port: Port): void {
  const onMessage = (message: ToWorker) => {
    if (message.type !== "run") return;
    port.off("message", onMessage);
    void main(port, message.input, message.writes);
  };
  port.on("message", onMessage);
}

async function main(
  port: Port,
  input: WorkerInput,
  writes: WorkerWrites | undefined,
): Promise<void> {
  const send = (message: FromWorker) => port.postMessage(message);
  // With a display in the command's thread, log lines go there, so that it prints them above
  // its lines instead of through them.
  const logger = createLogger({
    level: input.logLevel,
    destination:
      input.progress === "report"
        ? { write: (line: string) => send({ type: "log", line }) }
        : pino.destination({ dest: input.logFd, sync: true }),
  });
  const stop = new AbortController();
  port.on("message", (message: ToWorker) => {
    if (message.type === "stop") stop.abort();
  });
  // Logged progress is the run's own (its events carry the run id); reported progress goes to
  // the command's display.
  const progress: Progress | undefined =
    input.progress === "log"
      ? undefined
      : {
          planned: (event) => send({ type: "planned", event }),
          windowDone: (event) => send({ type: "window", event }),
          stop: () => {},
        };
  let answer: FromWorker;
  let destination: SyncDestination | undefined;
  try {
    destination = await openDestination(input, writes);
    const result = await runSync({
      scope: input.scope,
      destination,
      logger,
      signal: stop.signal,
      transport: { waitScale: input.waitScale },
      ...(progress ? { progress } : {}),
      ...(input.reportAttempts ? { onAttempt: (event) => send({ type: "attempt", event }) } : {}),
    });
    answer = {
      type: "result",
      result: { ...result, stats: { locations: result.stats.locations } },
    };
  } catch (error) {
    answer = { type: "failed", message: await failureMessage(error, input.scope.config) };
  }
  // Committed before answering: the command may read, move or delete the files the moment it
  // has the answer (the daemon opens them afresh after a failed run).
  if (destination) await closeQuietly(destination);
  // Sent before the port closes: an answer sent later would never arrive.
  send(answer);
  port.close();
}

/** The database as this thread writes it (db/database.ts): through the port to the command's
 * thread, which holds it, or itself, with as many connections as requests in flight. */
async function openDestination(
  input: WorkerInput,
  writes: WorkerWrites | undefined,
): Promise<SyncDestination> {
  if (writes) return connectDestination(writes.port, writes.shape);
  const { config } = input.scope;
  const database = await databaseFor(config);
  if (database.capabilities.writer !== "run's thread")
    throw new Error("a run its command writes needs the port to the database's thread");
  return database.openDestination(config, {
    keepRaw: config.keepRaw,
    keepHistory: config.keepHistory,
    poolSize: config.concurrency,
  });
}

/** One line the user can act on: a failing disk is named as `sync` names it. */
async function failureMessage(error: unknown, config: Config): Promise<string> {
  if (error instanceof PosSyncError) return error.message;
  const database = await databaseFor(config).catch(() => undefined);
  return database?.failureMessage(error, config) ?? messageOf(error);
}

/** A failing file may fail its last commit too; the thread ends either way. */
async function closeQuietly(destination: SyncDestination): Promise<void> {
  try {
    await destination.close();
  } catch {
    // nothing more to do: the process's exit releases the file
  }
}

if (parentPort) waitForRun(parentPort);
