/** The shape of a CLI command, and flag parsing that turns every mistake into a UsageError. */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { messageOf, UsageError } from "../errors.js";

export interface CommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** The share of the waits that spare a real API or mail server that this program waits
   * (clock/waits.ts): the entry's to decide, 1 in the shipped command line. */
  waitScale: number;
}

export interface Command {
  name: string;
  /** Full help text: usage line and flags. */
  help: string;
  /** Runs the command; resolves to the process exit code. */
  run(argv: string[], io: CommandIo): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig["options"]>;
/** What node:util's parser gives back for these options (named, so that declarations can). */
type Parsed<T extends Options, Positionals extends boolean> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: Positionals }>
>;

/** Strict parsing: unknown flags, missing values and stray arguments are usage errors. */
export function parseFlags<T extends Options>(
  argv: string[],
  options: T,
  command: string,
): Parsed<T, false>["values"] {
  return parseCommandLine(argv, options, command, false).values;
}

/** The same, for a command that also takes arguments (`pos-sync raw TABLE ID`). */
export function parseFlagsAndArguments<T extends Options>(
  argv: string[],
  options: T,
  command: string,
): Parsed<T, true> {
  return parseCommandLine(argv, options, command, true);
}

function parseCommandLine<T extends Options, Positionals extends boolean>(
  argv: string[],
  options: T,
  command: string,
  allowPositionals: Positionals,
): Parsed<T, Positionals> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (error) {
    // node:util puts hints on further lines; the CLI promises one line.
    const message = messageOf(error).replace(/\s*\n\s*/g, " ");
    throw new UsageError(`${command}: ${message} (see pos-sync ${command} --help)`);
  }
}
