/** A plain HTTP server on 127.0.0.1, for the behaviours of a real API the simulator does not play. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type PlainHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** Runs `test` against a server answering every request with `handler`, then closes it. */
export async function withServer(
  handler: PlainHandler,
  test: (url: string, requests: () => number) => Promise<void>,
): Promise<void> {
  let requests = 0;
  const server = createServer((request, response) => {
    requests++;
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await test(`http://127.0.0.1:${port}`, () => requests);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
