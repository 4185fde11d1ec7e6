/** The daemon's HTTP endpoint: /healthz and /metrics, on loopback unless told otherwise. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { listen } from "../listen.js";
import type { HealthTracker } from "./health.js";
import type { DaemonMetrics } from "./metrics.js";

export interface StatusServer {
  url: string;
  close(): Promise<void>;
}

export async function startStatusServer(
  options: { host: string; port: number },
  health: HealthTracker,
  metrics: DaemonMetrics,
): Promise<StatusServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET" }).end();
      return;
    }
    if (path === "/healthz") {
      const report = health.report();
      response
        .writeHead(report.httpStatus, { "content-type": "application/json" })
        .end(JSON.stringify(report.body));
      return;
    }
    if (path === "/metrics") {
      metrics.text().then(
        (text) =>
          response.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
        () => response.writeHead(500).end(),
      );
      return;
    }
    response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not_found"}');
  });
  await listen(server, {
    ...options,
    portHint: "--port (or POS_HTTP_PORT)",
    hostHint: "--host (or POS_HTTP_HOST)",
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
