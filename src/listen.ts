/**
 * Listening on a TCP port, with the failures a user causes (a port in use, a privileged port, an
 * address this machine does not have) turned into one line that says which flag to change.
 */
import type { Server } from "node:http";
import { UsageError } from "./errors.js";

export interface ListenOptions {
  host: string;
  port: number;
  /** How the user picks the port, for the error message: "--port". */
  portHint: string;
  /** How the user picks the host, when they can. */
  hostHint?: string;
}

function listenError(error: unknown, options: ListenOptions): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = `port ${options.port} on ${options.host}`;
  if (code === "EADDRINUSE")
    return new UsageError(`${where} is already in use: choose another with ${options.portHint}`);
  if (code === "EACCES")
    return new UsageError(
      `may not listen on ${where} (ports below 1024 need privileges): choose another with ${options.portHint}`,
    );
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN")
    return new UsageError(
      `cannot listen on ${options.host}: this machine has no such address` +
        (options.hostHint ? `: choose another with ${options.hostHint}` : ""),
    );
  return error;
}

export async function listen(server: Server, options: ListenOptions): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => reject(listenError(error, options));
    server.once("error", fail);
    server.listen(options.port, options.host, () => resolve());
  });
}
