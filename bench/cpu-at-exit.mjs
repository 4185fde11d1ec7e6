/**
 * Preloaded into a process a benchmark runs (`node --import`): when the process exits, writes its
 * CPU time (user and system, microseconds, every thread of the process) as JSON to file
 * descriptor 3, which the benchmark opened as a pipe.
 */
import { writeSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

// Worker threads load this too (they inherit the process's flags): the main thread, which ends
// last, reports for the whole process.
if (isMainThread)
  process.on("exit", () => {
    const usage = process.resourceUsage();
    try {
      writeSync(
        3,
        JSON.stringify({ userMicros: usage.userCPUTime, systemMicros: usage.systemCPUTime }),
      );
    } catch {
      // Not started by a benchmark: nothing listens on descriptor 3.
    }
  });
