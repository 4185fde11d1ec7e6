/** A TCP port on 127.0.0.1 that nothing listens on, for a server that cannot be reached. */
import { once } from "node:events";
import { type AddressInfo, createServer } from "node:net";

/** One the system just handed out and took back. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}
