/** A CLI child process a test can kill at a moment of its choosing, or run under limits. */
import {
  type ChildProcess,
  type SpawnOptions as NodeSpawnOptions,
  spawn,
  spawnSync,
} from "node:child_process";
import { CLI_PATH, type CliResult, childEnv } from "./cli.js";

export interface SpawnOptions {
  /** Meet file permissions as an ordinary user does, even when the tests run as root (a test
   * of a read-only database needs it). */
  ordinaryPermissions?: boolean;
  /** Largest file the process may write, in KiB (ulimit -f); writes beyond fail. */
  fileSizeLimitKb?: number;
  /** A directory the process sees mounted read-only (EROFS), as a backup or a `:ro` volume is;
   * only where canMountReadOnly() says so. */
  readOnlyMount?: string;
}

/** A private mount namespace: root with CAP_SYS_ADMIN may remount a directory read-only in it,
 * for one child process, without touching the machine's mounts. */
const UNSHARE_MOUNTS = ["unshare", "--mount", "--"];

let readOnlyMountWorks: boolean | undefined;

/** Whether this machine lets the tests give a child a read-only mount (root, unshare allowed). */
export function canMountReadOnly(): boolean {
  readOnlyMountWorks ??=
    process.getuid?.() === 0 &&
    spawnSync(UNSHARE_MOUNTS[0]!, [...UNSHARE_MOUNTS.slice(1), "true"], { stdio: "ignore" })
      .status === 0;
  return readOnlyMountWorks;
}

const NOBODY = 65534;

/**
 * Root without CAP_DAC_OVERRIDE: file modes bind it like any owner, while CAP_DAC_READ_SEARCH
 * still lets it read the code wherever the checkout lives (switching to `nobody` instead fails
 * in a checkout other users may not read, such as one under /root).
 */
const DROP_OVERRIDE = [
  "setpriv",
  "--bounding-set",
  "-dac_override",
  "--inh-caps",
  "-dac_override",
  "--",
];

let dropOverrideWorks: boolean | undefined;

/** setpriv (util-linux) is present and may drop a capability here (a container may forbid it). */
function canDropOverride(): boolean {
  dropOverrideWorks ??=
    spawnSync(DROP_OVERRIDE[0]!, [...DROP_OVERRIDE.slice(1), "true"], { stdio: "ignore" })
      .status === 0;
  return dropOverrideWorks;
}

/** The command line and spawn options that run the CLI under the given limits. */
function commandFor(
  args: string[],
  options: SpawnOptions,
): { command: string[]; extra: NodeSpawnOptions } {
  let command = [process.execPath, CLI_PATH, ...args];
  let extra: NodeSpawnOptions = {};
  if (options.fileSizeLimitKb !== undefined) {
    // SIGXFSZ would kill the process at the limit: ignored, the write fails with EFBIG instead,
    // as it does on a full disk.
    const script = `trap '' XFSZ; ulimit -f ${options.fileSizeLimitKb}; exec "$0" "$@"`;
    command = ["sh", "-c", script, ...command];
  }
  if (options.readOnlyMount !== undefined) {
    const script = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && shift && exec "$@"';
    command = [...UNSHARE_MOUNTS, "sh", "-c", script, "sh", options.readOnlyMount, ...command];
  }
  if (options.ordinaryPermissions && process.getuid?.() === 0) {
    // Without setpriv, the older way: works only where nobody may read the checkout.
    if (canDropOverride()) command = [...DROP_OVERRIDE, ...command];
    else extra = { uid: NOBODY, gid: NOBODY };
  }
  return { command, extra };
}

export function spawnCli(
  args: string[],
  env: Record<string, string>,
  options: SpawnOptions = {},
): ChildProcess & { exited: Promise<CliResult> } {
  const { command, extra } = commandFor(args, options);
  const child = spawn(command[0]!, command.slice(1), {
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
    ...extra,
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
