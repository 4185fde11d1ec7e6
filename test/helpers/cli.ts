/** Running the built command line, as it ships (bundled: scripts/bundle.mjs), as a real child
 * process. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Simulator } from "../../src/simulator/server.js";

export const CLI_PATH = fileURLToPath(new URL("../../dist/bin/cli.js", import.meta.url));

/** The environment that points the command line at a simulator (every key) and a database. */
export function simulatorEnv(
  simulator: Simulator,
  dbPath: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    POS_API_URL: simulator.url,
    POS_API_KEYS: simulator.keys.join(","),
    POS_DB_PATH: dbPath,
    ...extra,
  };
}

/**
 * Retry back-off, Retry-After waits and the probe's pacing in a child, as a fraction of the real
 * ones (POS_TEST_WAIT_SCALE, src/test-waits.ts): a child that retries against an unreachable API
 * gives up in a second, not in the 16 s and more of the real back-off. A test of the waits
 * themselves gives `POS_TEST_WAIT_SCALE: "1"`.
 */
const CHILD_WAIT_SCALE = "0.01";

/**
 * What a child command line inherits besides what a test gives it: the PATH, short waits, and
 * faketime(1)'s settings when the tests run under it, so that the command reads the same shifted
 * clock as the test (`faketime -f +3h npx vitest run` runs the suite as if three hours later).
 */
export function childEnv(env: Record<string, string>): Record<string, string> {
  const inherited: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    POS_TEST_WAIT_SCALE: CHILD_WAIT_SCALE,
  };
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && isFaketimeSetting(name)) inherited[name] = value;
  return { ...inherited, ...env };
}

/** Whether an environment variable is one of faketime(1)'s: its library or its settings. */
export function isFaketimeSetting(name: string): boolean {
  return name === "LD_PRELOAD" || name.startsWith("FAKETIME");
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      env: childEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
      timeout: timeoutMs,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A long-running command: resolves once its standard output contains `ready`. */
export function startCli(
  args: string[],
  ready: RegExp,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; output: () => string; exited: Promise<CliResult> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      env: childEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let started = false;
    const exited = new Promise<CliResult>((done) => {
      child.on("close", (code, signal) => {
        if (!started) reject(new Error(`exited before ready (${code}): ${stderr}`));
        done({ code, signal, stdout, stderr });
      });
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk;
      if (!started && ready.test(stdout)) {
        started = true;
        resolve({ child, output: () => stdout, exited });
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
  });
}
