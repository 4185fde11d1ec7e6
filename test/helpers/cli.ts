/** Running the built command line as a real child process. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Simulator } from "../../src/simulator/server.js";

export const CLI_PATH = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

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
      env: { PATH: process.env.PATH ?? "", ...env },
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
      env: { PATH: process.env.PATH ?? "", ...env },
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
