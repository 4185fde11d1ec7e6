/**
 * A real HTTP server on 127.0.0.1 that plays a webhook's receiving end (a chat service's
 * incoming webhook, an automation tool): it keeps each request it gets and answers with the
 * status a test chooses, or never answers at all.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface WebhookReceiverOptions {
  /** The status of every answer; 200 unless set. */
  status?: number;
  /** Read each request whole, then say nothing: a receiver that hangs. */
  neverAnswer?: boolean;
}

export interface ReceivedRequest {
  method: string;
  /** Path and query as the request line had them. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as text. */
  body: string;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:port/hooks/test-receiver: POST here. Any path works. */
  url: string;
  port: number;
  /** Every request received, in order. */
  received: ReceivedRequest[];
  /** The first received request no earlier call returned, waiting for it if need be. */
  next(): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  options: WebhookReceiverOptions = {},
): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const waiting: ((request: ReceivedRequest) => void)[] = [];
  let taken = 0;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const waiter = waiting.shift();
      if (waiter) waiter(received[taken++]!);
      if (options.neverAnswer) return;
      const status = options.status ?? 200;
      response.writeHead(status, { "content-type": "text/plain" });
      response.end(status < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hooks/test-receiver`,
    port,
    received,
    next: () =>
      taken < received.length
        ? Promise.resolve(received[taken++]!)
        : new Promise<ReceivedRequest>((resolve) => waiting.push(resolve)),
    close: () => {
      // A hanging exchange would keep close() waiting for its client.
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
