/** Running the built command line (bundled: scripts/bundle.mjs) as a real child process. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Simulator } from "../../src/simulator/server.js";

/** The command line as it ships: what a test of what ships runs (the modules it loads). */
export const SHIPPED_CLI_PATH = fileURLToPath(new URL("../../dist/bin/cli.js", import.meta.url));

/**
 * The same program as the tests' children run it (short-waits-cli.ts): retry back-off,
 * Retry-After waits, the probe's pacing and the outbox's retries a hundredth of the real ones,
 * so that a child that retries against an unreachable API gives up in a second, not in the 16 s
 * and more of the real back-off. A test of the waits themselves runs SHIPPED_CLI_PATH.
 */
export const CLI_PATH = fileURLToPath(new URL("../../dist/test-bin/cli.js", import.meta.url));

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
 * What a child command line inherits besides what a test gives it: the PATH, and
 * faketime(1)'s settings when the tests run under it, so that the command reads the same shifted
 * clock as the test (`faketime -f +3h npx vitest run` runs the suite as if three hours later).
 */
export function childEnv(env: Record<string, string>): Record<string, string> {
  const inherited: Record<string, string> = { PATH: process.env.PATH ?? "" };
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
