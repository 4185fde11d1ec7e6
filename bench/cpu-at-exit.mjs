/**
 * Preloaded into a process a benchmark runs (`node --import`): writes CPU times (microseconds,
 * user and system) to file descriptor 3, which the benchmark opened as a pipe, one JSON line
 * each. Each worker thread, as it ends, writes its own thread's time; the main thread, which ends
 * last, writes its own and the whole process's, V8's and libuv's helper threads included. A
 * thread's own time is read from /proc (Linux); elsewhere it is left out.
 */
import { readFileSync, writeSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

/** The calling thread's CPU time, from its /proc entry (utime and stime, in clock ticks). */
function threadMicros() {
  try {
    const stat = readFileSync("/proc/thread-self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat(5), counted here from field 3; Linux's clock tick is 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

function report(line) {
  try {
    writeSync(3, `${JSON.stringify(line)}\n`);
  } catch {
    // Not started by a benchmark: nothing listens on descriptor 3.
  }
}

process.on("exit", () => {
  if (!isMainThread) return report({ thread: "worker", threadMicros: threadMicros() });
  const usage = process.resourceUsage();
  report({
    thread: "main",
    threadMicros: threadMicros(),
    userMicros: usage.userCPUTime,
    systemMicros: usage.systemCPUTime,
  });
});
