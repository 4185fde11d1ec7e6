/**
 * Ending the command line's process once its output is written. On POSIX a write to a pipe is
 * asynchronous in Node: process.exit() right after `report --json | jq` would cut the JSON short.
 * The process is left to end by itself (process.exitCode), and only if something a library holds
 * open (a socket, a stuck thread) keeps it alive is it ended, and never while output waits.
 */

/** How long the process may take to end by itself once its command returned. */
export const EXIT_GRACE_MS = 3_000;

/** Whether the stream still holds output not handed to the system; a stream destroyed (a reader
 * gone: EPIPE) holds none that could still be written. */
function holdsOutput(stream: NodeJS.WriteStream): boolean {
  return !stream.destroyed && stream.writableLength > 0;
}

/** Sets the exit code and lets the process end; after `graceMs`, and again after each further
 * `graceMs` while stdout or stderr still hold output (a slow reader, a pager), ends it. */
export function exitOnceOutputIsWritten(code: number, graceMs = EXIT_GRACE_MS): void {
  process.exitCode = code;
  setTimeout(() => {
    if (holdsOutput(process.stdout) || holdsOutput(process.stderr))
      exitOnceOutputIsWritten(code, graceMs);
    else process.exit(code);
  }, graceMs).unref();
}
