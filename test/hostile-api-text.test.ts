/**
 * Text the API sends that would take over a terminal printing it raw (an ESC colour, an OSC
 * window title, CR, LF with a forged status line, DEL, C1, a bidi override) or a chat posting it
 * as markup (`<!channel>`, `@here`, a link under other words): names synced from a simulator over
 * HTTP, and a server's error message, show visibly in every text output, as plain words in a
 * webhook's text, and as sent in --json and a webhook's data.
 */
import type { ServerResponse } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { escapeHtml } from "../src/html-text.js";
import { chatText } from "../src/messages/compose/chat-text.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { hostileName } from "../src/simulator/hostile.js";
import { visible } from "../src/terminal-text.js";
import { formatProbe } from "../src/ui/format-probe.js";
import { MilestoneProgress } from "../src/ui/progress-display.js";
import { type CliResult, runCli, simulatorEnv } from "./helpers/cli.js";
import { openTestDb, useTempDir } from "./helpers/db.js";
import { startMailServer } from "./helpers/mail-server.js";
import { captureOutput } from "./helpers/output.js";
import { withServer } from "./helpers/plain-server.js";
import { probeSimulator } from "./helpers/probe.js";
import { useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";
import { expectNoTerminalControls } from "./helpers/terminal.js";
import { startWebhookReceiver } from "./helpers/webhook-receiver.js";

// The command line runs on the real clock: the simulator ends on the today it picks from it.
const sim = useSimulator({
  today: simulatorToday(),
  locations: 2,
  days: 4,
  ordersPerDay: [20, 40],
  changeRate: 0,
  hostileNames: true,
});
const tempPath = useTempDir();
let dbPath: string;
let laterSync: CliResult;

const env = () => simulatorEnv(sim.current, dbPath);
const locationNames = () => sim.current.dataset.locations.map((l) => String(l.location.name));
const staffNames = () => sim.current.dataset.locations.flatMap((l) => l.staff.map((s) => s.name));

/** Output of a command, checked to be plain terminal text holding no forged line. */
function expectSafe(text: string, what: string): void {
  expectNoTerminalControls(text, what);
  // The forged line of a name stays inside the name's line, after it.
  expect(text, what).not.toMatch(/^\s*orders\s+complete through 2099-01-01/m);
}

beforeAll(async () => {
  dbPath = tempPath();
  const first = await runCli(["sync"], env());
  expect(first.code, first.stderr).toBe(0);
  sim.current.dataset.applyLateUpdates(10, 3);
  laterSync = await runCli(["sync"], env());
  expect(laterSync.code, laterSync.stderr).toBe(0);
}, 120_000);

describe("names holding terminal controls", () => {
  it("show visibly in the run summary", () => {
    expectSafe(laterSync.stdout, "sync");
    for (const name of locationNames()) expect(laterSync.stdout).toContain(visible(name));
  });

  it("show visibly in status, one line per location heading; --json keeps them as sent", async () => {
    const text = await runCli(["status"], env());
    expect(text.code, text.stderr).toBe(0);
    expectSafe(text.stdout, "status");
    const lines = text.stdout.split("\n");
    for (const name of locationNames())
      expect(lines.some((line) => line.startsWith(`${visible(name)}  `))).toBe(true);
    const json = JSON.parse((await runCli(["status", "--json"], env())).stdout);
    expect(json.locations.map((l: { name: string }) => l.name).sort()).toEqual(
      locationNames().sort(),
    );
  });

  it("keep each change to one sentence on one line; --json keeps the names as sent", async () => {
    const text = await runCli(["changes", "--since", "2000-01-01"], env());
    expect(text.code, text.stderr).toBe(0);
    expectSafe(text.stdout, "changes");
    const [head, ...lines] = text.stdout.trimEnd().split("\n");
    const count = Number(/^(\d+) order changes? /.exec(head ?? "")?.[1]);
    expect(count).toBeGreaterThan(0);
    expect(lines).toHaveLength(count);
    const names = locationNames().map(visible);
    const operators = staffNames().map(visible);
    const products = sim.current.dataset.locations.flatMap((l) =>
      l.catalog.products.map((p) => visible(p.name)),
    );
    for (const line of lines) {
      expect(line).toMatch(/^- order \S+ at /);
      expect(names.some((name) => line.includes(` at ${name}, `))).toBe(true);
      expect(operators.some((name) => line.includes(` by ${name}`))).toBe(true);
      if (line.includes(", voided "))
        expect(products.some((name) => line.includes(`voided ${name} `))).toBe(true);
    }

    const json = JSON.parse(
      (await runCli(["changes", "--since", "2000-01-01", "--json"], env())).stdout,
    );
    expect(json.changes).toHaveLength(count);
    for (const change of json.changes) {
      expect(locationNames()).toContain(change.locationName);
      expect(staffNames()).toContain(change.changedBy);
      expectSafe(change.message, "changes --json message");
    }
  });

  it("show visibly in verify", async () => {
    const text = await runCli(["verify"], env());
    expect(text.code, text.stderr).not.toBe(2);
    expectSafe(text.stdout, "verify");
    for (const name of locationNames()) expect(text.stdout).toContain(`${visible(name)}  `);
  });

  it("show visibly in an error line that lists them", async () => {
    const result = await runCli(["changes", "--location", "Nowhere"], env());
    expect(result.code).toBe(2);
    expectSafe(result.stderr, "error line");
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    for (const name of locationNames()) expect(result.stderr).toContain(visible(name));
  });

  it("show visibly in the progress lines of a run", async () => {
    const { out, text } = captureOutput();
    const db = openTestDb(tempPath());
    try {
      await syncOnce(sim.current, db, { progress: new MilestoneProgress(out) });
    } finally {
      db.close();
    }
    expect(text()).not.toBe("");
    expectSafe(text(), "progress");
    for (const line of text().trimEnd().split("\n")) expect(line).toMatch(/^\\x1b\[31m/);
  });

  it("show visibly in the probe's report", async () => {
    const { report } = await probeSimulator({ hostileNames: true });
    const text = formatProbe(report);
    expectSafe(text, "probe");
    const other = report.otherKeys[0]?.location;
    expect(other).toMatch(/\u202e/);
    expect(text).toContain(`(${visible(String(other))})`);
  });

  it("reach a chat as plain words and an e-mail visibly with report --send; the webhook's data keeps them as sent", async () => {
    const mail = await startMailServer();
    const hook = await startWebhookReceiver();
    try {
      const result = await runCli(["report", "--send"], {
        ...env(),
        POS_REPORT_SMTP_URL: mail.url,
        POS_REPORT_FROM: "reports@example.com",
        POS_REPORT_TO: "owner@example.com",
        POS_REPORT_WEBHOOK_URL: hook.url,
      });
      expect(result.code, result.stderr).toBe(0);
      const message = await mail.next();
      const body = JSON.parse((await hook.next()).body) as {
        text: string;
        report: { locations: { name: string }[] };
      };
      expectNoTerminalControls(String(message.text), "e-mail text");
      expectNoTerminalControls(String(message.html), "e-mail HTML");
      expectNoTerminalControls(body.text, "webhook text");
      expect(body.text).not.toMatch(/[<>]/);
      expect(body.text).not.toMatch(/(?<![\p{L}\p{N}._+-])@[\p{L}\p{N}_]/u);
      expect(body.text).not.toContain("](");
      for (const name of locationNames()) {
        expect(body.text).toContain(chatText(visible(name)));
        expect(String(message.html)).toContain(escapeHtml(visible(name)));
      }
      expect(body.report.locations.map((l) => l.name).sort()).toEqual(locationNames().sort());
    } finally {
      await mail.close();
      await hook.close();
    }
  });
});

describe("a server's error message holding terminal controls", () => {
  const message = hostileName("no such location");

  it("shows visibly in the run summary, the error line, status and verify", async () => {
    const refusing = (_: unknown, response: ServerResponse) => {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify({ message }));
    };
    await withServer(refusing, async (url) => {
      const database = tempPath();
      const settings = { POS_API_URL: url, POS_API_KEYS: "pos_test_key", POS_DB_PATH: database };
      const sync = await runCli(["sync"], settings);
      expect(sync.code).toBe(1);
      expectSafe(sync.stdout, "sync");
      expect(sync.stdout).toContain(visible(message));
      const errorLine = sync.stderr.split("\n").filter((line) => line.startsWith("pos-sync: "));
      expect(errorLine).toHaveLength(1);
      expectSafe(errorLine.join("\n"), "sync error line");
      expect(errorLine[0]).toContain(visible(message));

      const status = await runCli(["status"], settings);
      expectSafe(status.stdout, "status");
      expect(status.stdout).toContain(visible(message));

      const verify = await runCli(["verify"], settings);
      expectSafe(verify.stdout, "verify");
      expect(verify.stdout).toContain(visible(message));
    });
  });
});
