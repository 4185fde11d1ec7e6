/**
 * The simulator's HTTP server on loopback: routing, authentication, fault injection and
 * request accounting around the operation handlers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import { type ApiPaths, DEFAULT_API_PATHS } from "../api/paths.js";
import { listen } from "../listen.js";
import { simulatorToday } from "./clock.js";
import { Dataset, type DatasetOptions } from "./dataset.js";
import {
  type FaultController,
  type FaultDecision,
  type FaultSettings,
  FaultController as Faults,
} from "./faults.js";
import {
  type AuthenticatedOperation,
  errorBody,
  type HandlerResult,
  handle,
  health,
} from "./handlers.js";
import type { SimLocation } from "./location.js";
import { resolveRoute, routeTable } from "./operations.js";
import { RateWindows } from "./rate-window.js";
import { RequestStats } from "./stats.js";

export interface SimulatorOptions extends Omit<DatasetOptions, "today" | "ordersPerDay"> {
  today?: string;
  ordersPerDay?: readonly [number, number];
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Prefix of the authorization header value ("Bearer"); empty expects the bare key. */
  authScheme?: string;
  paths?: Partial<ApiPaths>;
  /** Route "/x" and "/x/" apart, as some servers do (by default a trailing slash is optional). */
  strictSlashes?: boolean;
  faults?: Partial<FaultSettings>;
  logger?: Logger;
}

export interface Simulator {
  /** Base address, without a trailing slash: http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** One API key per location, in location order. */
  keys: string[];
  dataset: Dataset;
  faults: FaultController;
  stats: RequestStats;
  close(): Promise<void>;
}

/** A handler's result as it goes on the wire. */
interface Answer {
  status: number;
  text: string;
}

function answerOf(result: HandlerResult): Answer {
  return { status: result.status, text: JSON.stringify(result.body) };
}

function send(
  response: ServerResponse,
  answer: Answer,
  headers: Record<string, string> = {},
): void {
  response.writeHead(answer.status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(answer.text),
    ...headers,
  });
  response.end(answer.text);
}

function sendJson(
  response: ServerResponse,
  result: HandlerResult,
  headers: Record<string, string> = {},
): void {
  send(response, answerOf(result), headers);
}

/** Writes the headers and half the body, then cuts the connection. */
function sendTruncated(response: ServerResponse, answer: Answer): void {
  const body = Buffer.from(answer.text);
  response.writeHead(answer.status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": body.length,
  });
  response.write(body.subarray(0, Math.floor(body.length / 2)), () => response.socket?.destroy());
}

function authenticate(
  request: IncomingMessage,
  dataset: Dataset,
  scheme: string,
): { location: SimLocation } | { error: string } {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === "")
    return { error: "missing authorization header" };
  let key = header.trim();
  if (scheme !== "") {
    const prefix = `${scheme.toLowerCase()} `;
    if (!key.toLowerCase().startsWith(prefix))
      return { error: `authorization must use the ${scheme} scheme` };
    key = key.slice(prefix.length).trim();
  }
  const location = dataset.locationForKey(key);
  return location ? { location } : { error: "unknown API key" };
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const dataset = new Dataset({
    ...options,
    today: options.today ?? simulatorToday(),
    ordersPerDay: options.ordersPerDay ?? [50, 200],
  });
  const faults = new Faults(options.seed, options.faults);
  const stats = new RequestStats();
  const routes = routeTable({ ...DEFAULT_API_PATHS, ...options.paths }, options.strictSlashes);
  const rateWindows = new RateWindows();
  const scheme = options.authScheme ?? "";
  const host = options.host ?? "127.0.0.1";
  const startedAtMs = Date.now();
  const log = options.logger;
  let baseUrl = "";

  /** Whether a fault answers in the handler's place, or cuts the connection before it. */
  function replacesAnswer(decision: FaultDecision): boolean {
    return (
      decision.kind === "status" || (decision.kind === "drop" && decision.when === "before-headers")
    );
  }

  async function applyFault(decision: FaultDecision, response: ServerResponse): Promise<boolean> {
    if (decision.kind === "delay") {
      stats.fault("delayed");
      await sleep(decision.ms);
      return false;
    }
    if (decision.kind === "status") {
      stats.fault(decision.status === 429 ? "rateLimited" : "serverError");
      const headers: Record<string, string> = decision.retryAfter
        ? { "retry-after": decision.retryAfter }
        : {};
      const error = decision.status === 429 ? "rate_limited" : "server_error";
      sendJson(
        response,
        { status: decision.status, body: errorBody(error, `simulated ${decision.status}`) },
        headers,
      );
      stats.status(decision.status);
      return true;
    }
    if (decision.kind === "drop" && decision.when === "before-headers") {
      stats.fault("dropped");
      response.socket?.destroy();
      return true;
    }
    return false;
  }

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const arrivedAt = performance.now();
    const url = new URL(request.url ?? "/", baseUrl);
    const route = resolveRoute(routes, url.pathname);
    stats.request(route?.operation);
    const reply = (result: HandlerResult, headers?: Record<string, string>) => {
      stats.status(result.status);
      sendJson(response, result, headers);
    };
    if (!route)
      return reply({
        status: 404,
        body: errorBody("not_found", `no operation at ${url.pathname}`),
      });
    if (request.method !== "GET" && request.method !== "HEAD") {
      return reply(
        { status: 405, body: errorBody("method_not_allowed", "only GET is supported") },
        { allow: "GET" },
      );
    }
    if (route.operation === "health" && !faults.current.healthNeedsKey)
      return reply(health(startedAtMs, baseUrl));
    const auth = authenticate(request, dataset, scheme);
    if ("error" in auth) return reply({ status: 401, body: errorBody("unauthorized", auth.error) });
    const limit = faults.current.rateLimitPerMinute;
    const rate = limit === null ? undefined : rateWindows.take(auth.location.apiKey, limit);
    if (rate && !rate.allowed) {
      stats.fault("rateLimited");
      return reply(
        { status: 429, body: errorBody("rate_limited", `at most ${limit} requests a minute`) },
        rate.headers,
      );
    }
    if (route.operation === "health") return reply(health(startedAtMs, baseUrl), rate?.headers);

    // A response is due `latencyMs` after its request came in, the time spent making it
    // included: a remote server's own work is part of the latency its clients see, and a
    // benchmark's network bound (requests × latency ÷ concurrency) is then one a client that
    // does nothing else reaches.
    const decision = faults.decide(route.operation);
    const answer = replacesAnswer(decision)
      ? undefined
      : answerOf(
          handle({
            dataset,
            faults,
            stats,
            location: auth.location,
            url,
            route: { ...route, operation: route.operation as AuthenticatedOperation },
          }),
        );
    const wait = faults.current.latencyMs - (performance.now() - arrivedAt);
    if (wait > 0) await sleep(wait);
    if ((await applyFault(decision, response)) || !answer) return;
    if (decision.kind === "drop") {
      stats.fault("dropped");
      return sendTruncated(response, answer);
    }
    stats.status(answer.status);
    send(response, answer, rate?.headers);
  }

  const server: Server = createServer((request, response) => {
    const finished = stats.started();
    response.once("close", finished);
    serve(request, response).catch((error: unknown) => {
      log?.error({ err: error }, "simulator request failed");
      if (!response.headersSent) {
        sendJson(response, { status: 500, body: errorBody("internal_error", "simulator failure") });
      } else {
        response.destroy();
      }
    });
  });
  await listen(server, { port: options.port ?? 0, host, portHint: "--port" });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${host}:${port}`;
  log?.info({ url: baseUrl, locations: dataset.locations.length }, "simulator listening");

  return {
    url: baseUrl,
    port,
    keys: dataset.locations.map((l) => l.apiKey),
    dataset,
    faults,
    stats,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
