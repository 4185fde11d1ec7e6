/** The messages between a command and the worker thread that runs its sync. */
import type { MessagePort } from "node:worker_threads";
import type { AttemptEvent } from "../api/transport.js";
import type { LogLevel } from "../log.js";
import type { PlannedEvent, WindowEvent } from "../sync/progress.js";
import type { RunResult } from "../sync/run-result.js";
import type { RunScope } from "../sync/run-scope.js";
import type { DestinationShape } from "./remote-destination.js";

/** The run's scope, and how the thread reports on it. */
export interface WorkerInput {
  scope: RunScope;
  logLevel: LogLevel;
  /** 1 for standard output (a service), 2 for standard error (a command). */
  logFd: 1 | 2;
  /** Send progress events to the command (a terminal display), or log them in the worker. */
  progress: "report" | "log";
  /** Send every HTTP attempt to the command (metrics). */
  reportAttempts: boolean;
  /** The share of the back-off and Retry-After waits the run waits: the command's, handed on
   * (clock/waits.ts). */
  waitScale: number;
}

/** The port a SQLite run's writes go through, to the command's thread, which holds the database
 * (remote-destination.ts), with the shape of the destination on the other side. A run into
 * PostgreSQL has none: the thread connects to the server itself. */
export interface WorkerWrites {
  port: MessagePort;
  shape: DestinationShape;
}

export type ToWorker =
  /** From the command: run this sync (once; the thread was started ahead of it). */
  | { type: "run"; input: WorkerInput; writes?: WorkerWrites }
  /** From the command: stop the run (the page in hand is committed). */
  | { type: "stop" };

/** A RunResult as plain data: its stats lose their class on the way. */
export type PlainRunResult = Omit<RunResult, "stats"> & {
  stats: { locations: RunResult["stats"]["locations"] };
};

export type FromWorker =
  | { type: "planned"; event: PlannedEvent }
  /** A log line of the run, for the command's display to print without tearing it. */
  | { type: "log"; line: string }
  | { type: "window"; event: WindowEvent }
  | { type: "attempt"; event: AttemptEvent }
  | { type: "result"; result: PlainRunResult }
  | { type: "failed"; message: string };
