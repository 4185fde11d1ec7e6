/**
 * The browser helper itself, against pages a tiny local server serves: if it stopped seeing
 * errors, or let a request out, every browser test built on it would pass for the wrong reason.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeWithBrowser, launchChromium, leavesHost, watchPage } from "./helpers/browser.js";

const PAGES: Record<string, string> = {
  "/plain": "<!doctype html><title>plain</title><h1>Hello from the test server</h1>",
  "/remote-image": `<!doctype html><title>remote</title>
    <img src="http://example.com/x.png" onerror="document.title = 'image failed'">`,
  "/remote-socket": `<!doctype html><title>socket</title><script>
    new WebSocket("ws://example.com/socket").onclose = () => { document.title = "socket closed" };
    </script>`,
  "/console-error": `<!doctype html><title>console</title><script>console.error("boom")</script>`,
  "/broken": `<!doctype html><title>broken</title>
    <script src="/missing.js"></script><script>throw new Error("kaboom")</script>`,
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Serves PAGES, and also acts as the browser's HTTP proxy in the blocking test: a request the
 * helper let through for example.com lands here (as an absolute URL) instead of on the network,
 * so the test can tell "blocked" from "failed for want of a network".
 */
let server: Server;
let origin: string;
const served: string[] = [];
let browser: Browser;
let screenshots: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    served.push(request.url ?? "");
    // As a proxy it is asked for absolute URLs, for the pages too (Playwright sends loopback
    // through the proxy as well).
    const page = PAGES[new URL(request.url ?? "", "http://unused").pathname];
    if (page === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  // A WebSocket through a proxy asks for a tunnel (CONNECT example.com:80) instead.
  server.on("connect", (request, socket) => {
    served.push(request.url ?? "");
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  screenshots = await mkdtemp(join(tmpdir(), "pos-sync-browser-"));
});

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (screenshots) await rm(screenshots, { recursive: true, force: true });
});

it("tells loopback addresses from the rest", () => {
  expect(leavesHost("http://127.0.0.1:8080/")).toBe(false);
  expect(leavesHost("http://localhost/x")).toBe(false);
  expect(leavesHost("http://[::1]:3000/")).toBe(false);
  expect(leavesHost("data:image/png;base64,AAAA")).toBe(false);
  expect(leavesHost("about:blank")).toBe(false);
  expect(leavesHost("http://example.com/x.png")).toBe(true);
  expect(leavesHost("https://10.0.0.1/")).toBe(true);
  expect(leavesHost("ws://192.168.1.1/socket")).toBe(true);
});

describeWithBrowser("pages in a headless Chromium", () => {
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  /** A fresh context per test, through the test server as proxy (see `server`). */
  async function openPage(): Promise<Page> {
    const context = await browser.newContext({
      proxy: { server: origin },
      viewport: { width: 800, height: 600 },
    });
    return context.newPage();
  }

  it("loads a page from the local server and takes a screenshot of it", async () => {
    const page = await openPage();
    const watch = await watchPage(page);
    await page.goto(`${origin}/plain`);
    expect(await page.textContent("h1")).toBe("Hello from the test server");

    const path = join(screenshots, "plain.png");
    await page.screenshot({ path });
    const png = await readFile(path);
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // IHDR's width and height: the viewport, so the shot is of the page and not an empty frame.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([800, 600]);
    expect(watch.problems()).toEqual([]);
    await page.context().close();
  });

  it("blocks and reports a request that would leave the host", async () => {
    const page = await openPage();
    const watch = await watchPage(page);
    await page.goto(`${origin}/remote-image`);
    await expect.poll(() => page.title()).toBe("image failed");

    expect(watch.leftHost).toEqual(["http://example.com/x.png"]);
    // One line, though Chromium also logs the failure to the console.
    expect(watch.problems()).toEqual([
      "request leaving the host, blocked: http://example.com/x.png",
    ]);
    // Through the proxy, a request let out would have reached the test server.
    expect(served.filter((url) => url.includes("example.com"))).toEqual([]);
    await page.context().close();
  });

  it("blocks and reports a WebSocket that would leave the host", async () => {
    const page = await openPage();
    const watch = await watchPage(page);
    await page.goto(`${origin}/remote-socket`);
    await expect.poll(() => page.title()).toBe("socket closed");

    expect(served.filter((url) => url.includes("example.com"))).toEqual([]);
    expect(watch.problems()).toEqual([
      "request leaving the host, blocked: ws://example.com/socket",
    ]);
    await page.context().close();
  });

  it("reports what a page logs with console.error", async () => {
    const page = await openPage();
    const watch = await watchPage(page);
    await page.goto(`${origin}/console-error`);

    expect(watch.consoleErrors.map((e) => e.text)).toEqual(["boom"]);
    expect(watch.problems()).toEqual([`console error: boom (${origin}/console-error:1)`]);
    await page.context().close();
  });

  it("reports an uncaught exception and a script the server does not have", async () => {
    const page = await openPage();
    const watch = await watchPage(page);
    await page.goto(`${origin}/broken`);

    expect(watch.pageErrors.map((e) => e.message)).toEqual(["kaboom"]);
    expect(watch.failedRequests).toEqual([{ url: `${origin}/missing.js`, reason: "HTTP 404" }]);
    expect(watch.problems()).toEqual([
      "uncaught error: kaboom",
      `request failed: ${origin}/missing.js (HTTP 404)`,
    ]);
    await page.context().close();
  });
});
