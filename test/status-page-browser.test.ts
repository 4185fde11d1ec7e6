/**
 * The status page in a real browser (Debian's headless Chromium): a daemon on a database synced
 * from the simulator with one incomplete day, whose own run failed. The page loads with no
 * console error and no request beyond this machine, shows the incomplete day as incomplete and
 * the failed run's message, fits a phone's width, and a screenshot is saved.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { simulatorToday } from "../src/simulator/clock.js";
import {
  describeWithBrowser,
  launchChromium,
  type PageWatch,
  screenshotDir,
  watchPage,
} from "./helpers/browser.js";
import { useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";
import { startTroubledDaemon, type TroubledDaemon } from "./helpers/status-page-scenario.js";

const tempPath = useTempDir();
const sim = useSimulator({
  today: simulatorToday(),
  days: 40,
  seed: 31,
  locations: 2,
  changeRate: 0,
});
const TOKEN = "browser-test-token-0123456789";
// Functions run in the browser; the DOM's types are not among this Node project's libraries.
declare const getComputedStyle: (element: unknown) => { fill: string };
const PAGE_OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth";
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Where the screenshots go: kept after the run, for a person to look at. */
const SCREENSHOT_DIR = screenshotDir();

describeWithBrowser("the status page in Chromium", () => {
  let daemon: TroubledDaemon;
  let browser: Browser;
  let page: Page;
  let watch: PageWatch;

  beforeAll(async () => {
    daemon = await startTroubledDaemon(sim.current, tempPath(), {
      env: { POS_HTTP_TOKEN: TOKEN },
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    watch = await watchPage(page);
    const response = await page.goto(`${daemon.url}/?token=${TOKEN}`);
    expect(response?.status()).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("loads with no console error and no request beyond this machine", () => {
    expect(watch.problems()).toEqual([]);
  });

  it("shows the incomplete day as incomplete, with its counts on hover", async () => {
    const locationId = sim.current.dataset.locationForKey(daemon.locationKey)?.location.id;
    const section = page.locator(`section.location[data-location="${locationId}"]`);
    const day = section.locator(`g.day[data-stream="orders"][data-day="${daemon.incompleteDay}"]`);
    await expect.poll(() => day.getAttribute("data-coverage")).toBe("incomplete");
    expect(await day.locator("title").textContent()).toMatch(
      new RegExp(
        `^${daemon.incompleteDay} orders: incomplete \\(stored (\\d+) of the \\d+ the API counts`,
      ),
    );
    const fill = (cell: ReturnType<Page["locator"]>) =>
      cell.locator("rect").evaluate((rect) => getComputedStyle(rect).fill);
    const incompleteFill = await fill(day);
    const legendFill = await fill(
      page.locator(".legend svg").filter({ has: page.locator("rect.cell.incomplete") }),
    );
    expect(incompleteFill).toBe(legendFill);
    const aCompleteDay = section.locator('g.day[data-stream="orders"][data-coverage="complete"]');
    expect(await fill(aCompleteDay.first())).not.toBe(incompleteFill);
    // Every other day of every location and stream is in, through the day the syncs ran on.
    // The page reads the real clock: late in a UTC day a location east of UTC is already on the
    // next day, which no sync reached (the daemon's own run failed) and is shown as missing.
    const cells = await page
      .locator("g.day")
      .evaluateAll((days) =>
        days.map((g) => [g.getAttribute("data-day"), g.getAttribute("data-coverage")]),
      );
    const syncedThrough = sim.current.dataset.today;
    const synced = cells.filter(([day]) => (day ?? "") <= syncedThrough);
    const later = cells.filter(([day]) => (day ?? "") > syncedThrough);
    expect(synced.length).toBeGreaterThan(4 * 30);
    expect(synced.filter(([, coverage]) => coverage !== "complete" && coverage !== "open")).toEqual(
      [[daemon.incompleteDay, "incomplete"]],
    );
    expect(later.filter(([, coverage]) => coverage !== "missing")).toEqual([]);
  });

  it("shows the failed run's message in plain words", async () => {
    const failed = page.locator("tr.run.failed").first();
    await expect.poll(() => failed.isVisible()).toBe(true);
    expect(await failed.locator("td.error").textContent()).toMatch(
      /^the API rejected the API key key#[0-9a-f]{8} \(401 on GET [^)]+\): check that the key is right/,
    );
    expect(await page.content()).not.toContain("a-key-nobody-issued");
  });

  it("reloads itself every minute", async () => {
    expect(await page.locator('meta[http-equiv="refresh"]').getAttribute("content")).toBe("60");
  });

  it("fits a phone's width: only the wide boxes scroll, not the page", async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      const phoneWatch = await watchPage(phone);
      await phone.goto(`${daemon.url}/?token=${TOKEN}`);
      const overflow = await phone.evaluate<number>(PAGE_OVERFLOW);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(phoneWatch.problems()).toEqual([]);
      await phone.screenshot({
        path: join(SCREENSHOT_DIR, "pos-sync-status-page-phone.png"),
        fullPage: true,
      });
    } finally {
      await phone.close();
    }
  });

  it("saves a screenshot of the whole page", async () => {
    const path = join(SCREENSHOT_DIR, "pos-sync-status-page.png");
    await page.screenshot({ path, fullPage: true });
    const png = readFileSync(path);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    // Width and height from the IHDR chunk: the whole page, not the first screen.
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBeGreaterThan(900);
  });
});
