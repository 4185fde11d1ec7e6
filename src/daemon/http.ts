/**
 * The daemon's HTTP endpoint, on loopback unless told otherwise: the status page at `/` (behind
 * the token when one is set, closed off loopback without one: page-access.ts), /healthz for
 * orchestrators (never behind it) and /metrics.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { messageOf } from "../errors.js";
import { listen } from "../listen.js";
import type { Logger } from "../log.js";
import { CONTENT_SECURITY_POLICY } from "../ui/status-page/page.js";
import type { HealthTracker } from "./health.js";
import type { DaemonMetrics } from "./metrics.js";
import { type PageAccess, pageAccess } from "./page-access.js";
import type { StatusPageSource } from "./status-page-source.js";

export interface StatusServer {
  url: string;
  close(): Promise<void>;
}

export interface StatusServerParts {
  health: HealthTracker;
  metrics: DaemonMetrics;
  page: StatusPageSource;
  logger: Logger;
}

/** The request's address, or undefined for one no URL parser accepts (`//[`): answered 400,
 * rather than thrown where nothing would catch it. */
function requestUrl(request: IncomingMessage): URL | undefined {
  try {
    return new URL(request.url ?? "/", "http://status.invalid");
  } catch {
    return undefined;
  }
}

const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  // frame-ancestors only works as a header (a <meta> policy cannot carry it): no page may frame
  // this one to trick a click.
  "content-security-policy": `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  // A token in the address must not travel to another site in a Referer header.
  "referrer-policy": "no-referrer",
};

/** Why the page is refused, in one line each; a closed page names the setting that opens it. */
function refusal(access: Exclude<PageAccess, "granted">, bindHost: string) {
  const text = "text/plain; charset=utf-8";
  switch (access) {
    case "unauthorized":
      return {
        status: 401,
        headers: { "content-type": text, "www-authenticate": "Bearer" },
        line: "The status page needs its token: add ?token=… to the address, or send it as a bearer header.",
      };
    case "closed":
      return {
        status: 403,
        headers: { "content-type": text },
        line: `The status page is not served on ${bindHost} without POS_HTTP_TOKEN: set it to open the page from other machines (/healthz and /metrics stay open).`,
      };
    case "misdirected":
      return {
        status: 421,
        headers: { "content-type": text },
        line: "This address does not name this machine's loopback; open the page by 127.0.0.1 or localhost, or set POS_HTTP_TOKEN.",
      };
  }
}

function servePage(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  options: { host: string; token?: string | undefined },
  parts: StatusServerParts,
): void {
  const access = pageAccess(request, url, options.host, options.token);
  if (access !== "granted") {
    const { status, headers, line } = refusal(access, options.host);
    response.writeHead(status, headers).end(`${line}\n`);
    return;
  }
  parts.page.render().then(
    (page) => {
      const gzipped = acceptsGzip(request.headers["accept-encoding"]);
      response.writeHead(200, {
        ...PAGE_HEADERS,
        vary: "accept-encoding",
        ...(gzipped ? { "content-encoding": "gzip" } : {}),
      });
      response.end(request.method === "HEAD" ? undefined : gzipped ? page.gzipped : page.html);
    },
    (error) => {
      parts.logger.warn({ error: messageOf(error) }, "could not render the status page");
      response
        .writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "60" })
        .end("The status page cannot read the database right now; see the daemon's log.\n");
    },
  );
}

export async function startStatusServer(
  options: { host: string; port: number; token?: string | undefined },
  parts: StatusServerParts,
): Promise<StatusServer> {
  const { health, metrics } = parts;
  const server: Server = createServer((request, response) => {
    const url = requestUrl(request);
    if (!url) {
      response
        .writeHead(400, { "content-type": "application/json" })
        .end('{"error":"bad_request"}');
      return;
    }
    const path = url.pathname;
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET" }).end();
      return;
    }
    if (path === "/") {
      servePage(request, response, url, options, parts);
      return;
    }
    if (path === "/healthz") {
      const answer = health.answer();
      response
        .writeHead(answer.httpStatus, { "content-type": "application/json" })
        .end(JSON.stringify(answer.body));
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

/** Whether an Accept-Encoding header takes gzip: named, or else "*", with a weight above 0
 * ("gzip;q=0" refuses it). */
export function acceptsGzip(header: string | undefined): boolean {
  const weights = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [coding = "", ...parameters] = part.split(";").map((text) => text.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    weights.set(coding, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  return (weights.get("gzip") ?? weights.get("*") ?? 0) > 0;
}
