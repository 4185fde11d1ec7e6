/**
 * The worker thread that runs one sync: it opens its own connection (every write of the run goes
 * through it) and reports progress and the result to the command that started it. Running here
 * lets the command give the run a heap ceiling (see worker-runner.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import { pino } from "pino";
import { openDatabase } from "../db/open.js";
import { createLogger } from "../log.js";
import type { Progress } from "./progress.js";
import { runSync } from "./run.js";
import type { FromWorker, ToWorker, WorkerInput } from "./worker-protocol.js";

async function main(port: NonNullable<typeof parentPort>): Promise<void> {
  const input = workerData as WorkerInput;
  const send = (message: FromWorker) => port.postMessage(message);
  const logger = createLogger({
    level: input.logLevel,
    destination: pino.destination({ dest: input.logFd, sync: true }),
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
          planned: (stream, days) => send({ type: "planned", stream, days }),
          windowDone: (event) => send({ type: "window", event }),
          stop: () => {},
        };
  const db = openDatabase(input.config.dbPath);
  try {
    const result = await runSync({
      config: input.config,
      db,
      logger,
      trigger: input.trigger,
      ...(input.streams ? { streams: input.streams } : {}),
      ...(input.range ? { range: input.range } : {}),
      signal: stop.signal,
      ...(progress ? { progress } : {}),
      ...(input.reportAttempts ? { onAttempt: (event) => send({ type: "attempt", event }) } : {}),
    });
    send({ type: "result", result: { ...result, stats: { locations: result.stats.locations } } });
  } finally {
    db.close();
    port.close();
  }
}

if (parentPort) {
  const port = parentPort;
  main(port).catch((error: unknown) => {
    port.postMessage({
      type: "failed",
      message: error instanceof Error ? error.message : String(error),
    } satisfies FromWorker);
  });
}
