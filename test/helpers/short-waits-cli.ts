/**
 * The command line as the tests' children run it: the shipped program (src/cli/main.ts), its
 * waits that spare a real API or mail server a hundredth of the designed ones (clock/waits.ts),
 * so that a child retrying against an unreachable API gives up in a second, not in the 16 s and
 * more of the real back-off. Bundled into dist/test-bin/ beside the shipped dist/bin/
 * (scripts/bundle.mjs); the worker threads it starts get the share with their run.
 */
import { runThisProcess } from "../../src/cli/process-entry.js";

const TEST_WAIT_SCALE = 0.01;

runThisProcess(TEST_WAIT_SCALE);
