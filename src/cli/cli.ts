#!/usr/bin/env node
/**
 * The shipped command line's entry (the `pos-sync` bin, dist/bin/cli.js): runs main.ts with this
 * process's streams and environment, and the waits as designed.
 */
import { DESIGNED_WAITS } from "../clock/waits.js";
import { exitOnceOutputIsWritten } from "./exit-when-written.js";
import { main } from "./main.js";

// The command is over: whatever a library may still hold open must not keep the process alive,
// or a supervisor's stop would hang on it; its output must still reach the reader whole.
main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  waitScale: DESIGNED_WAITS,
}).then(exitOnceOutputIsWritten);
