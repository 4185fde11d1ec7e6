/**
 * The status page as the daemon serves it (a real child process against the simulator): behind
 * its token when one is set, never /healthz; closed off loopback without a token; self-contained
 * and locked down by its headers; answering while a run writes; and `status --html` writing the
 * same page as a file.
 */
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { logEvents, startDaemon } from "./helpers/daemon.js";
import { useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";
import { until } from "./helpers/wait.js";

const tempPath = useTempDir();
const sim = useSimulator({
  today: simulatorToday(),
  days: 6,
  seed: 23,
  locations: 2,
  changeRate: 0,
});
const TOKEN = "c0ffee-status-page-token-1234";

let dbPath: string;
beforeAll(async () => {
  dbPath = tempPath();
  const synced = await runCli(["sync"], simulatorEnv(sim.current, dbPath));
  expect(synced.code).toBe(0);
}, 60_000);

describe("the daemon's status page", () => {
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  beforeAll(async () => {
    daemon = await startDaemon(
      ["--schedule", "0 0 1 1 *"],
      simulatorEnv(sim.current, dbPath, { POS_HTTP_TOKEN: TOKEN }),
    );
    await until(() => daemon.output().includes('"msg":"run finished"'));
  }, 60_000);
  afterAll(async () => {
    daemon?.child.kill("SIGTERM");
    await daemon?.exited;
  });

  it("refuses the page without its token, and serves health without one", async () => {
    const bare = await fetch(`${daemon.url}/`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toBe("Bearer");
    expect(await bare.text()).not.toContain(TOKEN);
    const wrong = await fetch(`${daemon.url}/`, {
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.status).toBe(401);
    expect((await fetch(`${daemon.url}/?token=nearly-${TOKEN}`)).status).toBe(401);
    expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);
  });

  it("serves the page to a bearer header or a ?token= address, locked down by its headers", async () => {
    const byHeader = await fetch(`${daemon.url}/`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(byHeader.status).toBe(200);
    expect(byHeader.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(byHeader.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(byHeader.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await byHeader.text();
    expect(html).toContain('<meta http-equiv="refresh" content="60">');
    for (const key of sim.current.keys) expect(html).not.toContain(key);
    expect(html).not.toContain(TOKEN);
    const byAddress = await fetch(`${daemon.url}/?token=${TOKEN}`, {
      headers: { "accept-encoding": "gzip" },
    });
    expect(byAddress.status).toBe(200);
    expect(byAddress.headers.get("content-encoding")).toBe("gzip");
    expect(await byAddress.text()).toBe(html);
    const refusing = await fetch(`${daemon.url}/?token=${TOKEN}`, {
      headers: { "accept-encoding": "gzip;q=0, identity" },
    });
    expect(refusing.headers.get("content-encoding")).toBeNull();
    expect(await refusing.text()).toBe(html);
    const head = await fetch(`${daemon.url}/?token=${TOKEN}`, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
  });

  it("never puts the token in a log line", () => {
    expect(daemon.output()).not.toContain(TOKEN);
    expect(daemon.output()).toContain('"tokenRequired":true');
  });
});

describe("a page served while a run writes", () => {
  it("answers during the run, which it shows as running, and the run still succeeds", async () => {
    const path = tempPath();
    // Slow answers (two requests at a time), so that the run is still writing when the page is
    // asked for; then quick ones, so that it ends.
    sim.current.faults.set({ latencyMs: 500 });
    const daemon = await startDaemon(
      ["--schedule", "0 0 1 1 *"],
      simulatorEnv(sim.current, path, { POS_CONCURRENCY: "2" }),
    );
    try {
      let page = "";
      await until(async () => {
        page = await (await fetch(`${daemon.url}/`)).text();
        return page.includes('class="badge running"');
      }, "the page to show the run running");
      sim.current.faults.set({ latencyMs: 0 });
      await until(
        () => daemon.output().includes('"msg":"run finished"'),
        "the run to finish",
        60_000,
      );
      expect(daemon.output()).toContain('"status":"succeeded"');
      // Once the page kept from during the run is old enough to be read again.
      await until(
        async () => (await (await fetch(`${daemon.url}/`)).text()).includes("badge succeeded"),
        "the page to show the run succeeded",
      );
    } finally {
      sim.current.faults.reset();
      daemon.child.kill("SIGTERM");
      await daemon.exited;
    }
  }, 90_000);
});

/** One raw HTTP request, as a browser or a script might send it, and the status line answered. */
function rawRequest(url: string, lines: string[]): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${lines.join("\r\n")}\r\nConnection: close\r\n\r\n`),
    );
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    socket.on("end", () => resolve(answer.split("\r\n")[0] ?? ""));
    socket.on("error", reject);
  });
}

describe("a daemon on loopback without a token", () => {
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  beforeAll(async () => {
    daemon = await startDaemon(["--schedule", "0 0 1 1 *"], simulatorEnv(sim.current, dbPath));
  }, 60_000);
  afterAll(async () => {
    daemon?.child.kill("SIGTERM");
    await daemon?.exited;
  });

  it("answers a loopback name, and refuses another name pointed at it (DNS rebinding)", async () => {
    const port = new URL(daemon.url).port;
    expect(await rawRequest(daemon.url, ["GET / HTTP/1.1", `Host: 127.0.0.1:${port}`])).toBe(
      "HTTP/1.1 200 OK",
    );
    expect(await rawRequest(daemon.url, ["GET / HTTP/1.1", `Host: localhost:${port}`])).toBe(
      "HTTP/1.1 200 OK",
    );
    expect(await rawRequest(daemon.url, ["GET / HTTP/1.1", `Host: rebound.example:${port}`])).toBe(
      "HTTP/1.1 421 Misdirected Request",
    );
    expect(
      await rawRequest(daemon.url, ["GET /healthz HTTP/1.1", `Host: rebound.example:${port}`]),
    ).toMatch(/^HTTP\/1\.1 (200|503) /);
  });

  it("answers an address no parser accepts with 400, and keeps serving", async () => {
    expect(await rawRequest(daemon.url, ["GET //[ HTTP/1.1", "Host: 127.0.0.1"])).toBe(
      "HTTP/1.1 400 Bad Request",
    );
    expect((await fetch(`${daemon.url}/healthz`)).status).toBeLessThan(600);
    expect(daemon.child.exitCode).toBeNull();
  });
});

describe("a daemon on 0.0.0.0 without a token", () => {
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  /** Reached through loopback: the point is the address it is bound to, not the one used. */
  let local: string;
  const closedWarnings = () =>
    logEvents(daemon.output()).filter(
      (e) => e.level === 40 && String(e.msg).includes("POS_HTTP_TOKEN"),
    );
  beforeAll(async () => {
    daemon = await startDaemon(
      ["--schedule", "0 0 1 1 *", "--host", "0.0.0.0"],
      simulatorEnv(sim.current, tempPath()),
    );
    local = `http://127.0.0.1:${new URL(daemon.url).port}`;
  }, 60_000);
  afterAll(async () => {
    daemon?.child.kill("SIGTERM");
    await daemon?.exited;
  });

  it("refuses the page with 403 to every request, whatever Host it names", async () => {
    const port = new URL(local).port;
    for (const host of [`evil.example:${port}`, `127.0.0.1:${port}`, `localhost:${port}`])
      expect(await rawRequest(local, ["GET / HTTP/1.1", `Host: ${host}`])).toBe(
        "HTTP/1.1 403 Forbidden",
      );
    const plain = await fetch(`${local}/?token=anything-at-all-here`);
    expect(plain.status).toBe(403);
    const body = await plain.text();
    expect(body.trim().split("\n")).toHaveLength(1);
    expect(body).toContain("POS_HTTP_TOKEN");
    expect(body).not.toContain("<html");
  });

  it("still serves /healthz and /metrics, which a container needs", async () => {
    const port = new URL(local).port;
    expect(
      await rawRequest(local, ["GET /healthz HTTP/1.1", `Host: evil.example:${port}`]),
    ).toMatch(/^HTTP\/1\.1 (200|503) /);
    const metrics = await fetch(`${local}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain("pos_sync_run_in_progress");
  });

  it("says why once, at start, naming the setting", async () => {
    await until(() => closedWarnings().length > 0);
    await fetch(`${local}/`);
    await until(() => daemon.output().includes('"msg":"run finished"'), "the run to finish");
    expect(closedWarnings()).toHaveLength(1);
    expect(closedWarnings()[0]).toMatchObject({ host: "0.0.0.0" });
    expect(daemon.output()).toContain('"tokenRequired":false');
  });
});

describe("pos-sync status --html", () => {
  it("writes the page as one self-contained file, without the reload", async () => {
    const file = `${tempPath()}.html`;
    const result = await runCli(["status", "--html", file], { POS_DB_PATH: dbPath });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(file);
    const html = readFileSync(file, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('data-stream="orders" data-coverage="complete"');
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).not.toMatch(/<script|<link|src="http/);
  });

  it("says in one line when the file cannot be written, and when there is no database", async () => {
    const unwritable = await runCli(["status", "--html", "/nonexistent-dir/page.html"], {
      POS_DB_PATH: dbPath,
    });
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr.trim()).toBe(
      "pos-sync: cannot write the status page to /nonexistent-dir/page.html (ENOENT)",
    );
    const missing = await runCli(["status", "--html", `${tempPath()}.html`], {
      POS_DB_PATH: `${tempPath()}-none.sqlite`,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    const both = await runCli(["status", "--json", "--html", `${tempPath()}.html`], {
      POS_DB_PATH: dbPath,
    });
    expect([both.code, both.stderr.trim()]).toEqual([
      2,
      "pos-sync: status: give --json or --html FILE, not both",
    ]);
  });
});

describe("POS_HTTP_TOKEN", () => {
  it("refuses a token too short to be safe, in one line that does not repeat it", async () => {
    const result = await runCli(
      ["daemon", "--port", "0"],
      simulatorEnv(sim.current, tempPath(), { POS_HTTP_TOKEN: "hunter2" }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("POS_HTTP_TOKEN must be at least 16 characters");
    expect(result.stderr).not.toContain("hunter2");
  });
});
