/**
 * What a run answers, and the exit code it makes: apart from the run itself (run.ts), so that a
 * command's thread, which only writes and reports, does not load the reading side to tell.
 */
import { EXIT, type ExitCode } from "../errors.js";
import type { RunStatus } from "../vocabulary.js";
import type { RunStats } from "./stats.js";

export interface RunResult {
  runId: number;
  status: RunStatus;
  stats: RunStats;
  requests: number;
  retries: number;
  rateLimited: number;
  startedAt: string;
  finishedAt: string;
  error: string | null;
  /** Worth saying of the run as a whole: why it left locations to other workers. */
  notices: string[];
}

/** The exit code docs/commands.md documents for a finished run: only a run that completed every
 * window exits 0 (an interrupted one did not). */
export function exitCodeFor(result: RunResult): ExitCode {
  if (result.stats.keyRejected) return EXIT.keyRejected;
  return result.status === "succeeded" ? EXIT.ok : EXIT.incomplete;
}
