/** The daemon as a real child process: started, found at its address, and waited on. */
import { startCli } from "./cli.js";

/** Starts the daemon and resolves once its HTTP server listens, with the server's address. */
export async function startDaemon(args: string[], environment: Record<string, string>) {
  const daemon = await startCli(
    ["daemon", "--port", "0", ...args],
    /serving the status page/,
    environment,
  );
  const line = daemon
    .output()
    .split("\n")
    .find((l) => l.includes("serving the status page"));
  const url = JSON.parse(line ?? "{}").url as string;
  return { ...daemon, url };
}

/** The daemon's log lines (JSON), in order. */
export function logEvents(output: string): Record<string, unknown>[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}
