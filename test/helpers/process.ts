/** A CLI child process a test can kill at a moment of its choosing. */
import { type ChildProcess, spawn } from "node:child_process";
import { CLI_PATH, type CliResult } from "./cli.js";

export function spawnCli(
  args: string[],
  env: Record<string, string>,
): ChildProcess & { exited: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = new Promise<CliResult>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return Object.assign(child, { exited });
}
