/**
 * Whether a process on this host still runs. A zombie (a process that exited and that its parent
 * has not reaped yet, common under supervisors and shells that never wait) answers `kill(pid, 0)`
 * like a live one, yet it will never write again: it counts as dead here.
 */
import { readFileSync } from "node:fs";

/** The state letter of /proc/PID/stat (R, S, D, Z, X...), or undefined where /proc is absent. */
function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "PID (command) STATE ...": the command may hold spaces and parentheses, the state follows
    // the last closing parenthesis.
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) || undefined;
  } catch {
    return undefined;
  }
}

export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as { code?: string }).code !== "EPERM") return false;
  }
  const state = procState(pid);
  return state !== "Z" && state !== "X";
}
