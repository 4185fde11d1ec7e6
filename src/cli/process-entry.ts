/**
 * Running the command line as this process: its arguments, streams and environment, with the
 * waits' share the entry gives (the shipped entry, cli.ts, the designed waits; the tests' own,
 * shorter ones).
 */
import { exitOnceOutputIsWritten } from "./exit-when-written.js";
import { main } from "./main.js";

export function runThisProcess(waitScale: number): void {
  // The command is over: whatever a library may still hold open must not keep the process
  // alive, or a supervisor's stop would hang on it; its output must still reach the reader whole.
  main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    waitScale,
  }).then(exitOnceOutputIsWritten);
}
