/**
 * A real headless Chromium for tests that look at a page as a person would. It is Debian's
 * Chromium, driven through playwright-core: Playwright's own browser builds cannot be downloaded
 * here, and playwright-core never tries to.
 */
import { accessSync, constants, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page, type Request } from "playwright-core";
import { describe } from "vitest";
import { isFaketimeSetting } from "./cli.js";

/** POS_TEST_CHROMIUM points the tests at another build (a developer's own Chrome, say). */
/**
 * Where the browser tests leave their screenshots, to look at after a run: POS_TEST_SCREENSHOT_DIR,
 * else a folder of the user's own in the temporary folder. Not the temporary folder itself: a
 * file another user's run left there cannot be replaced, and the run would fail on it.
 */
export function screenshotDir(): string {
  const given = process.env.POS_TEST_SCREENSHOT_DIR;
  if (given) return given;
  const dir = join(tmpdir(), `pos-sync-screenshots-${process.getuid?.() ?? "user"}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export const CHROMIUM_PATH = process.env.POS_TEST_CHROMIUM ?? "/usr/bin/chromium";

/** Why the browser tests cannot run here, or null when they can. */
export function chromiumMissingReason(): string | null {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return null;
  } catch {
    return `${CHROMIUM_PATH} not found; .ci/run installs it`;
  }
}

/**
 * A describe block that runs only where Chromium is installed. Elsewhere it is skipped, and its
 * title says why, so a run without the browser shows what it did not test rather than passing
 * quietly.
 */
export function describeWithBrowser(title: string, body: () => void): void {
  const reason = chromiumMissingReason();
  describe.skipIf(reason !== null)(reason === null ? title : `${title} (skipped: ${reason})`, body);
}

/**
 * Launches Chromium headless. Close it in afterAll: each one is a handful of processes.
 *
 * --no-sandbox because CI runs as root, where Chromium refuses its sandbox. The rest keep the
 * browser from talking to Google's services on its own, which no page routing would see. Even
 * with them, Debian's build still looks up update.googleapis.com and accounts.google.com: the
 * resolver rule answers "not found" inside the browser for every host but the loopback ones, so
 * not even a DNS query leaves. The rule applies to addresses as well as names (127.0.0.1 needs
 * its own EXCLUDE), which also stops the browser reaching an address such as 10.0.0.1.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    env: withoutFaketime(process.env),
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE *.localhost, EXCLUDE 127.*, EXCLUDE ::1",
    ],
  });
}

export interface ConsoleError {
  text: string;
  /** Where the page logged it: URL and line, when Chromium knows them. */
  location: string;
}

export interface FailedRequest {
  url: string;
  /** Chromium's network error (net::ERR_…) or the HTTP status the server answered with. */
  reason: string;
}

/** What went wrong on a page since watchPage began; each list in the order it happened. */
export interface PageWatch {
  /** console.error calls, and the errors Chromium itself logs to the console. */
  readonly consoleErrors: ConsoleError[];
  /** Exceptions the page's scripts threw and nothing caught. */
  readonly pageErrors: Error[];
  /** URLs the page asked for beyond this machine; every one was aborted before it left. */
  readonly leftHost: string[];
  /** Requests that failed or were answered with a status of 400 or more (blocked ones are in
   * leftHost instead). */
  readonly failedRequests: FailedRequest[];
  /** All of the above, one line each: `expect(watch.problems()).toEqual([])` shows them all. */
  problems(): string[];
}

/**
 * Whether a request would leave this machine. Schemes without a host (data:, about:, blob:,
 * file:///) never do; the rest must name the loopback range, as every server a test starts does.
 */
export function leavesHost(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  if (host === "") return false;
  return !(
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "[::1]" ||
    /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

/**
 * Chromium's own console line for a request that failed ("Failed to load resource: …"), at that
 * request's URL: it says again what a line of its own already says.
 */
function isNetworkEcho(error: ConsoleError, reportedUrls: string[]): boolean {
  return (
    error.text.startsWith("Failed to load resource:") &&
    reportedUrls.some((url) => error.location.startsWith(`${url}:`))
  );
}

/**
 * Starts collecting a page's errors, and stops its requests beyond this machine: the network
 * here reaches nothing else, and a page that tried would otherwise only look slow. Call it before
 * the first goto, or the page's first requests go unseen.
 */
export async function watchPage(page: Page): Promise<PageWatch> {
  const consoleErrors: ConsoleError[] = [];
  const pageErrors: Error[] = [];
  const leftHost: string[] = [];
  const failedRequests: FailedRequest[] = [];
  // Requests reported already, as blocked or by their status: Chromium fails them too.
  const reported = new WeakSet<Request>();

  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const { url, lineNumber } = message.location();
    consoleErrors.push({ text: message.text(), location: url ? `${url}:${lineNumber + 1}` : "" });
  });
  page.on("pageerror", (error) => pageErrors.push(error));
  page.on("requestfailed", (request) => {
    if (reported.has(request)) return;
    failedRequests.push({ url: request.url(), reason: request.failure()?.errorText ?? "failed" });
  });
  page.on("response", (response) => {
    if (response.status() < 400) return;
    reported.add(response.request());
    failedRequests.push({ url: response.url(), reason: `HTTP ${response.status()}` });
  });

  // Routing only what leaves the host keeps the page's own requests untouched (interception
  // changes caching and timing).
  await page.route(
    (url) => leavesHost(url.href),
    (route) => {
      reported.add(route.request());
      leftHost.push(route.request().url());
      return route.abort("blockedbyclient");
    },
  );
  // WebSockets bypass page.route; an unconnected route never reaches the server it names.
  await page.routeWebSocket(
    (url) => leavesHost(url.href),
    (socket) => {
      leftHost.push(socket.url());
      return socket.close({ code: 1008, reason: "blocked by the test: leaves the host" });
    },
  );

  return {
    consoleErrors,
    pageErrors,
    leftHost,
    failedRequests,
    problems: () => [
      ...consoleErrors
        .filter((e) => !isNetworkEcho(e, [...leftHost, ...failedRequests.map((r) => r.url)]))
        .map((e) => `console error: ${e.text}${e.location && ` (${e.location})`}`),
      ...pageErrors.map((e) => `uncaught error: ${e.message}`),
      ...leftHost.map((url) => `request leaving the host, blocked: ${url}`),
      ...failedRequests.map((r) => `request failed: ${r.url} (${r.reason})`),
    ],
  };
}

/**
 * The environment without faketime(1)'s library: Chromium hangs under it. The pages' dates come
 * from the servers the tests start, which keep the shifted clock.
 */
function withoutFaketime(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !isFaketimeSetting(entry[0]),
    ),
  );
}
