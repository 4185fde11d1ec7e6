/**
 * The morning report's HTML part in a real browser (Debian's headless Chromium), as a mail client
 * would show it: it loads nothing, raises no error, shows every location with its exceptions
 * first, and fits a phone's width. A screenshot is saved for a person to look at.
 */
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import { openReadableDestination } from "../src/commands/common.js";
import { loadConfig } from "../src/config/config.js";
import { reportHtml } from "../src/morning-report/html.js";
import { collectMorningReport, type MorningReport } from "../src/morning-report/morning-report.js";
import {
  describeWithBrowser,
  launchChromium,
  screenshotDir,
  watchPage,
} from "./helpers/browser.js";
import { useDestinations } from "./helpers/destinations.js";
import { useSimulator } from "./helpers/simulator.js";
import { syncInto } from "./helpers/sync.js";

const sim = useSimulator({ changeRate: 4, seed: 73 });
const destinations = useDestinations();
const PAGE_OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth";
const SCREENSHOT_DIR = screenshotDir();

describeWithBrowser("the morning report's HTML part in Chromium", () => {
  let browser: Browser;
  let report: MorningReport;
  let html: string;

  beforeAll(async () => {
    const into = await destinations.fresh("sqlite");
    const destination = await into.open();
    try {
      const { result } = await syncInto(sim.current, destination);
      expect(result.status).toBe("succeeded");
    } finally {
      await destination.close();
    }
    const reader = await openReadableDestination(loadConfig({ env: into.env, needsApi: false }));
    try {
      report = await collectMorningReport(reader, { day: addDays(sim.current.dataset.today, -1) });
    } finally {
      await reader.close();
    }
    html = reportHtml(report);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("loads nothing, raises nothing, and shows every location, those with exceptions first", async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    try {
      const watch = await watchPage(page);
      await page.setContent(html);
      expect(watch.problems()).toEqual([]);
      const shown = await page
        .locator("section[data-location]")
        .evaluateAll((sections) => sections.map((s) => s.getAttribute("data-location")));
      const withExceptions = report.locations.filter((l) => l.exceptions.length > 0);
      expect(withExceptions.length).toBeGreaterThan(0);
      expect(shown).toEqual([
        ...withExceptions.map((l) => l.locationId),
        ...report.locations.filter((l) => l.exceptions.length === 0).map((l) => l.locationId),
      ]);
      const rows = await page.locator("section[data-location] tr").count();
      expect(rows).toBe(withExceptions.length + report.chain.exceptions);
      await page.screenshot({
        path: join(SCREENSHOT_DIR, "pos-sync-morning-report.png"),
        fullPage: true,
      });
    } finally {
      await page.close();
    }
  });

  it("fits a phone's width", async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await phone.setContent(html);
      expect(await phone.evaluate<number>(PAGE_OVERFLOW)).toBeLessThanOrEqual(0);
    } finally {
      await phone.close();
    }
  });
});
