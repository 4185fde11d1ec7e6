/**
 * Regenerates docs/status-page.png, the picture of the status page in docs/service.md: the simulator's
 * chain synced (with a rate limit met on the way and one day left incomplete), a daemon on it
 * whose key the API rejects, and its page at `/` in Debian's headless Chromium. Run with
 * `npm run docs:screenshot` (it builds first: the daemon runs from dist/).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator } from "../src/simulator/server.js";
import { chromiumMissingReason, launchChromium, watchPage } from "../test/helpers/browser.js";
import { startTroubledDaemon } from "../test/helpers/status-page-scenario.js";

const OUTPUT = fileURLToPath(new URL("../docs/status-page.png", import.meta.url));
const VIEWPORT = { width: 1100, height: 900 };

async function main(): Promise<void> {
  const missing = chromiumMissingReason();
  if (missing) throw new Error(`cannot take the screenshot: ${missing}`);
  const simulator = await startSimulator({ seed: 1, locations: 2, days: 75 });
  const directory = mkdtempSync(join(tmpdir(), "pos-sync-screenshot-"));
  try {
    const daemon = await startTroubledDaemon(simulator, join(directory, "pos.sqlite"), {
      // The wall clock, so that the runs' durations on the page are real ones.
      syncOptions: { now: () => new Date() },
      schedule: "*/15 * * * *",
    });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: VIEWPORT });
      const watch = await watchPage(page);
      await page.goto(`${daemon.url}/`);
      if (watch.problems().length > 0) throw new Error(watch.problems().join("\n"));
      await page.screenshot({ path: OUTPUT, fullPage: true });
    } finally {
      await browser.close();
      await daemon.stop();
    }
  } finally {
    await simulator.close();
    rmSync(directory, { recursive: true, force: true });
  }
  process.stdout.write(`wrote ${OUTPUT}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
