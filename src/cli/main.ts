/**
 * The pos-sync command line: picks the command, runs it, and turns every failure into one clear
 * line on standard error and the exit code docs/commands.md documents. Its entry (cli.ts) gives
 * it the process's streams and environment, and the waits it waits.
 */
import { readFileSync } from "node:fs";
import type { Command, CommandIo } from "../commands/command.js";
import { EXIT, messageOf, PosSyncError, UsageError } from "../errors.js";
import { packagePath } from "../package-root.js";
import { visible } from "../terminal-text.js";

/** A command as the CLI lists it; its module is loaded when it runs or shows its help, so that a
 * command pays for its own modules alone (sync never loads the daemon's or the simulator's). */
export interface ListedCommand {
  name: string;
  /** One line for the command list. */
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly ListedCommand[] = [
  {
    name: "sync",
    summary: "replicate the API into the database once (incremental, or --since/--until)",
    load: async () => (await import("../commands/sync.js")).syncCommand,
  },
  {
    name: "daemon",
    summary: "sync on a schedule as a service, with /healthz and /metrics",
    load: async () => (await import("../commands/daemon.js")).daemonCommand,
  },
  {
    name: "status",
    summary: "show what the database holds: complete days, gaps, rows, rejects, last run",
    load: async () => (await import("../commands/status.js")).statusCommand,
  },
  {
    name: "verify",
    summary: "check stored days against the API's counts, and reports against orders",
    load: async () => (await import("../commands/verify.js")).verifyCommand,
  },
  {
    name: "changes",
    summary: "say which stored orders changed after the fact, when, by whom, for how much",
    load: async () => (await import("../commands/changes.js")).changesCommand,
  },
  {
    name: "report",
    summary: "the morning report of a day: sales, exceptions by employee, the data's health",
    load: async () => (await import("../commands/report.js")).reportCommand,
  },
  {
    name: "probe",
    summary: "find what the API's document leaves unshown, and the settings to use",
    load: async () => (await import("../commands/probe.js")).probeCommand,
  },
  {
    name: "migrate",
    summary: "create or upgrade the database schema",
    load: async () => (await import("../commands/migrate.js")).migrateCommand,
  },
  {
    name: "raw",
    summary: "print one record's JSON as the API sent it, from the raw archive",
    load: async () => (await import("../commands/raw.js")).rawCommand,
  },
  {
    name: "simulate",
    summary: "serve the POS API simulator on 127.0.0.1 and print its API keys",
    load: async () => (await import("../commands/simulate.js")).simulateCommand,
  },
  {
    name: "demo",
    summary: "sync a built-in simulator into data/demo.sqlite and show what you get",
    load: async () => (await import("../commands/demo.js")).demoCommand,
  },
];

function version(): string {
  const manifest = JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    "Usage: pos-sync <command> [options]",
    "",
    "Replicates the Point-of-Sale Data Read API into a local SQLite database.",
    "",
    "Commands:",
    ...lines,
    "",
    "Run pos-sync <command> --help for a command's options.",
    "",
  ].join("\n");
}

function findCommand(name: string): ListedCommand {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command)
    throw new UsageError(`unknown command ${JSON.stringify(name)} (see pos-sync --help)`);
  return command;
}

/** Runs the CLI with the given arguments (without node and the script) and returns the exit code. */
export async function main(argv: string[], io: CommandIo): Promise<number> {
  try {
    const [first, ...rest] = argv;
    if (first === undefined || first === "--help" || first === "-h" || first === "help") {
      const target = first === "help" ? rest[0] : undefined;
      io.stdout.write(target ? (await findCommand(target).load()).help : mainHelp());
      return first === undefined ? EXIT.usage : EXIT.ok;
    }
    if (first === "--version" || first === "-v") {
      io.stdout.write(`${version()}\n`);
      return EXIT.ok;
    }
    const command = await findCommand(first).load();
    if (rest.includes("--help") || rest.includes("-h")) {
      io.stdout.write(command.help);
      return EXIT.ok;
    }
    return await command.run(rest, io);
  } catch (error) {
    return reportFailure(error, io);
  }
}

function reportFailure(error: unknown, io: CommandIo): number {
  const debug = io.env.LOG_LEVEL === "debug" || io.env.LOG_LEVEL === "trace";
  // A message may quote the API (a server's message, a location's name): one visible line.
  if (error instanceof PosSyncError) {
    io.stderr.write(`pos-sync: ${visible(error.message)}\n`);
    if (debug && error.stack) io.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = messageOf(error);
  io.stderr.write(`pos-sync: unexpected error: ${visible(message.split("\n")[0] ?? "")}\n`);
  if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  return EXIT.incomplete;
}
