/** A CLI child process a test can kill at a moment of its choosing, or run under limits. */
import { type ChildProcess, spawn } from "node:child_process";
import { CLI_PATH, type CliResult } from "./cli.js";

export interface SpawnOptions {
  /** Run as this user (a test running as root has to, to meet a read-only directory). */
  uid?: number;
  /** Largest file the process may write, in KiB (ulimit -f); writes beyond fail. */
  fileSizeLimitKb?: number;
}

export function spawnCli(
  args: string[],
  env: Record<string, string>,
  options: SpawnOptions = {},
): ChildProcess & { exited: Promise<CliResult> } {
  const environment = { PATH: process.env.PATH ?? "", ...env };
  const limited = options.fileSizeLimitKb !== undefined;
  // SIGXFSZ would kill the process at the limit: ignored, the write fails with EFBIG instead,
  // as it does on a full disk.
  const child = limited
    ? spawn(
        "sh",
        [
          "-c",
          `trap '' XFSZ; ulimit -f ${options.fileSizeLimitKb}; exec "$0" "$@"`,
          process.execPath,
          CLI_PATH,
          ...args,
        ],
        { env: environment, stdio: ["ignore", "pipe", "pipe"] },
      )
    : spawn(process.execPath, [CLI_PATH, ...args], {
        env: environment,
        stdio: ["ignore", "pipe", "pipe"],
        ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
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
