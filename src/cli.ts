#!/usr/bin/env node
import { realpathSync } from "node:fs";
/**
 * The pos-sync command line: picks the command, runs it, and turns every failure into one clear
 * line on standard error and the exit code the README documents.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { changesCommand } from "./commands/changes.js";
import type { Command, CommandIo } from "./commands/command.js";
import { daemonCommand } from "./commands/daemon.js";
import { demoCommand } from "./commands/demo.js";
import { migrateCommand } from "./commands/migrate.js";
import { probeCommand } from "./commands/probe.js";
import { rawCommand } from "./commands/raw.js";
import { simulateCommand } from "./commands/simulate.js";
import { statusCommand } from "./commands/status.js";
import { syncCommand } from "./commands/sync.js";
import { verifyCommand } from "./commands/verify.js";
import { EXIT, messageOf, PosSyncError, UsageError } from "./errors.js";
import { visible } from "./ui/terminal-text.js";

/** How long the process may take to end by itself once its command returned. */
const EXIT_GRACE_MS = 3_000;

export const COMMANDS: readonly Command[] = [
  syncCommand,
  daemonCommand,
  statusCommand,
  verifyCommand,
  changesCommand,
  probeCommand,
  migrateCommand,
  rawCommand,
  simulateCommand,
  demoCommand,
];

function version(): string {
  const require = createRequire(import.meta.url);
  const manifest = require("../package.json") as { version: string };
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

function findCommand(name: string): Command {
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
      io.stdout.write(target ? findCommand(target).help : mainHelp());
      return first === undefined ? EXIT.usage : EXIT.ok;
    }
    if (first === "--version" || first === "-v") {
      io.stdout.write(`${version()}\n`);
      return EXIT.ok;
    }
    const command = findCommand(first);
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

/**
 * The command is over: whatever a library may still hold open (a socket, a stuck thread) must
 * not keep the process alive, or a supervisor's stop would hang on it. Output still on its way
 * to a slow reader (a pager) is let through first.
 */
function exitOnceOutputIsWritten(code: number): void {
  setTimeout(() => {
    if (process.stdout.writableLength > 0 || process.stderr.writableLength > 0)
      exitOnceOutputIsWritten(code);
    else process.exit(code);
  }, EXIT_GRACE_MS).unref();
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  const io: CommandIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };
  main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
    exitOnceOutputIsWritten(code);
  });
}
