/**
 * Whether a run recorded as running still runs: a process killed outright (SIGKILL, power loss)
 * never gets to record how it ended. Only a process of this host can be checked.
 */
import { hostname } from "node:os";
import { isProcessAlive } from "../process-liveness.js";

/** alive or gone: checked here; other-host or no-pid: cannot be checked from here. */
export type ProcessCheck = "alive" | "gone" | "other-host" | "no-pid";

export interface RecordedRun {
  status: string;
  pid: number | null;
  hostname: string | null;
}

/** The check of a run recorded as running; null for a run that recorded its end. */
export function checkRunProcess(run: RecordedRun, thisHost = hostname()): ProcessCheck | null {
  if (run.status !== "running") return null;
  if (run.pid === null) return "no-pid";
  if (run.hostname !== null && run.hostname !== thisHost) return "other-host";
  return isProcessAlive(run.pid) ? "alive" : "gone";
}

/** What the run is: a running run whose process is gone was interrupted. */
export function effectiveRunStatus(run: RecordedRun, check: ProcessCheck | null): string {
  return check === "gone" ? "interrupted" : run.status;
}
