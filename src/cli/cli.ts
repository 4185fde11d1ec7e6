#!/usr/bin/env node
/**
 * The shipped command line's entry (the `pos-sync` bin, dist/bin/cli.js): the command line as
 * this process, with the waits as designed.
 */
import { DESIGNED_WAITS } from "../clock/waits.js";
import { runThisProcess } from "./process-entry.js";

runThisProcess(DESIGNED_WAITS);
