/**
 * HTTP for the API client: one undici connection pool with keep-alive and explicit timeouts, a
 * bound on requests in flight shared by every location, retries with exponential backoff and
 * jitter, and a shared slow-down on 429. It returns parsed JSON and throws only ApiError.
 */
import pLimit, { type LimitFunction } from "p-limit";
import pRetry from "p-retry";
import { Agent, request } from "undici";
import type { Logger } from "../log.js";
import { scrubSecrets } from "../secrets.js";
import {
  ApiError,
  ApiKeyRejectedError,
  ApiNetworkError,
  ApiRateLimitedError,
  ApiResponseError,
  ApiServerError,
  ApiStatusError,
  type RequestDescription,
} from "./errors.js";
import { RateGate } from "./rate-gate.js";
import {
  DEFAULT_RETRY,
  networkOutcome,
  parseRetryAfter,
  type RetrySettings,
  statusOutcome,
} from "./retry-policy.js";

export interface Timeouts {
  connectMs: number;
  /** Until the response headers arrive. */
  headersMs: number;
  /** Between two chunks of the body. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 60_000, bodyMs: 60_000 };

export interface TransportOptions {
  baseUrl: string;
  concurrency: number;
  timeouts?: Partial<Timeouts>;
  /** Largest response body accepted, in bytes. */
  maxBodyBytes?: number;
  retry?: Partial<RetrySettings>;
  logger: Logger;
}

export interface JsonRequest {
  operation: string;
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** The full authorization header value; empty sends none. */
  authorization: string;
  /** Strings to scrub from anything this request may put into an error or a log line. */
  secrets: readonly string[];
  /** Names the key in a rejection message: a fingerprint, never the key. */
  keyLabel: string;
  /** 404 means what to the caller: "absent" answers null instead of throwing. */
  notFound?: "throw" | "absent";
  signal?: AbortSignal;
}

/** What happened to one HTTP attempt, for metrics. */
export interface AttemptEvent {
  operation: string;
  status: number | undefined;
  durationMs: number;
  outcome: "ok" | "retryable" | "fatal";
}

export interface TransportStats {
  requests: number;
  retries: number;
  rateLimited: number;
  failedRequests: number;
}

const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
const ERROR_BODY_SNIPPET = 200;

/** Path and query as sent: what error messages and logs name a request by. */
export function describeTarget(path: string, query: JsonRequest["query"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** The message of an error body, for the user: its `message` field, or its first characters. */
function serverMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    const message = parsed.message ?? parsed.error;
    if (typeof message === "string") return message.slice(0, ERROR_BODY_SNIPPET);
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.replace(/\s+/g, " ").trim().slice(0, ERROR_BODY_SNIPPET);
}

function errorCode(error: unknown): string {
  if (error && typeof error === "object") {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === "string") return code;
    if (name === "AbortError") return "ABORT_ERR";
  }
  return "UNKNOWN";
}

export class HttpTransport {
  readonly stats: TransportStats = { requests: 0, retries: 0, rateLimited: 0, failedRequests: 0 };
  private readonly agent: Agent;
  private readonly limit: LimitFunction;
  private readonly gate: RateGate;
  private readonly retry: RetrySettings;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly listeners: ((event: AttemptEvent) => void)[] = [];

  constructor(private readonly options: TransportOptions) {
    const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    const base = new URL(options.baseUrl);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, "");
    this.agent = new Agent({
      connections: options.concurrency,
      keepAliveTimeout: 10_000,
      connect: { timeout: timeouts.connectMs },
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
      maxResponseSize: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    });
    this.limit = pLimit(options.concurrency);
    this.gate = new RateGate(this.limit, options.concurrency);
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** Called after every attempt: metrics and request accounting hang here. */
  onAttempt(listener: (event: AttemptEvent) => void): void {
    this.listeners.push(listener);
  }

  get concurrency(): number {
    return this.gate.concurrency;
  }

  /** GET a path and parse its JSON, retrying what is worth retrying. */
  async getJson(spec: JsonRequest): Promise<unknown> {
    const description: RequestDescription = {
      operation: spec.operation,
      target: describeTarget(this.basePath + spec.path, spec.query),
    };
    try {
      return await pRetry((attempt) => this.limit(() => this.attempt(spec, description, attempt)), {
        retries: this.retry.retries,
        minTimeout: this.retry.minDelayMs,
        maxTimeout: this.retry.maxDelayMs,
        factor: 2,
        randomize: true,
        signal: spec.signal,
        shouldRetry: ({ error }) =>
          error instanceof ApiError && error.retryable && spec.signal?.aborted !== true,
        onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
          if (error instanceof ApiError) error.attempts = attemptNumber;
          const willRetry = error instanceof ApiError && error.retryable && retriesLeft > 0;
          if (willRetry) this.stats.retries++;
          this.options.logger.warn(
            {
              operation: spec.operation,
              target: description.target,
              attempt: attemptNumber,
              retriesLeft,
              willRetry,
            },
            error.message,
          );
        },
      });
    } catch (error) {
      this.stats.failedRequests++;
      if (error instanceof ApiError) throw error;
      // Only an abort of the caller's signal gets here; describe it without the original object.
      throw new ApiNetworkError(description, errorCode(error), "request aborted", false);
    }
  }

  private async attempt(
    spec: JsonRequest,
    description: RequestDescription,
    attemptNumber: number,
  ): Promise<unknown> {
    await this.gate.whenOpen(spec.signal);
    this.stats.requests++;
    const started = performance.now();
    let status: number | undefined;
    try {
      const result = await this.exchange(spec, description, (s) => {
        status = s;
      });
      this.gate.succeeded();
      this.emit(spec.operation, status, started, "ok");
      return result;
    } catch (error) {
      const apiError = this.toApiError(error, spec, description);
      apiError.attempts = attemptNumber;
      this.emit(spec.operation, status, started, apiError.retryable ? "retryable" : "fatal");
      throw apiError;
    }
  }

  /** One HTTP exchange; throws ApiError for statuses, anything else for transport failures. */
  private async exchange(
    spec: JsonRequest,
    description: RequestDescription,
    onStatus: (s: number) => void,
  ) {
    const response = await request(`${this.origin}${description.target}`, {
      method: "GET",
      dispatcher: this.agent,
      headers:
        spec.authorization === ""
          ? { accept: "application/json" }
          : { authorization: spec.authorization, accept: "application/json" },
      signal: spec.signal,
    });
    onStatus(response.statusCode);
    const outcome = statusOutcome(response.statusCode);
    const body = await response.body.text();
    if (outcome === "ok") {
      try {
        return JSON.parse(body) as unknown;
      } catch {
        throw new ApiResponseError(description, "the body is not JSON", true);
      }
    }
    if (outcome === "not-found" && spec.notFound === "absent") return null;
    if (outcome === "rate-limited") {
      const header = response.headers["retry-after"];
      const retryAfterMs = parseRetryAfter(
        Array.isArray(header) ? header[0] : header,
        this.retry.maxRetryAfterMs,
      );
      this.stats.rateLimited++;
      this.gate.rateLimited(retryAfterMs);
      throw new ApiRateLimitedError(description, retryAfterMs);
    }
    if (outcome === "key-rejected")
      throw new ApiKeyRejectedError(description, response.statusCode, spec.keyLabel);
    if (outcome === "retry") throw new ApiServerError(description, response.statusCode);
    throw new ApiStatusError(
      description,
      response.statusCode,
      scrubSecrets(serverMessage(body), spec.secrets),
    );
  }

  private toApiError(error: unknown, spec: JsonRequest, description: RequestDescription): ApiError {
    if (error instanceof ApiError) return error;
    // The original error is dropped on purpose: only its code travels on, so nothing a library
    // attached to it (sockets, headers) can leak.
    const code = errorCode(error);
    const outcome = networkOutcome(code);
    const detail =
      outcome.description === "unexpected network error" && error instanceof Error
        ? `${outcome.description}: ${scrubSecrets(error.message, spec.secrets)}`
        : outcome.description;
    return new ApiNetworkError(description, code, detail, outcome.retryable);
  }

  private emit(
    operation: string,
    status: number | undefined,
    started: number,
    outcome: AttemptEvent["outcome"],
  ): void {
    const event = { operation, status, durationMs: performance.now() - started, outcome };
    for (const listener of this.listeners) listener(event);
  }

  /** Closes the connection pool: gracefully for a moment, then by force, so that a stop on a
   * signal never waits on a request the server does not finish. */
  async close(graceMs = 1_000): Promise<void> {
    const closed = this.agent.close();
    const timer = new Promise<"timeout">((resolve) =>
      setTimeout(() => resolve("timeout"), graceMs).unref(),
    );
    if ((await Promise.race([closed, timer])) === "timeout") await this.agent.destroy();
  }
}
