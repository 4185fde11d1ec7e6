/**
 * HTTP for the API client: one undici connection pool with keep-alive and explicit timeouts, a
 * bound on requests in flight shared by every location, retries with exponential backoff and
 * jitter within a deadline per request, and a shared slow-down on 429. It returns parsed JSON and
 * throws only ApiError. At debug level every attempt is logged; failed attempts, at warn.
 */
import pLimit, { type LimitFunction } from "p-limit";
import pRetry from "p-retry";
import { Agent, request } from "undici";
import { durationText } from "../clock/durations.js";
import { DESIGNED_WAITS, scaledWait } from "../clock/waits.js";
import { CpuLane, PAGE_STEP } from "../cpu-lane.js";
import type { Logger } from "../log.js";
import { scrubSecrets } from "../secrets.js";
import { askedAuthScheme } from "./auth-challenge.js";
import { errorCode, firstHeaderValue, serverMessage } from "./error-details.js";
import {
  ApiDeadlineError,
  ApiError,
  ApiKeyRejectedError,
  ApiNetworkError,
  ApiRateLimitedError,
  ApiRedirectError,
  ApiResponseError,
  ApiServerError,
  ApiStatusError,
  type RequestDescription,
} from "./errors.js";
import { RateGate } from "./rate-gate.js";
import { shownRedirectTarget } from "./redirect-target.js";
import { RequestDeadline } from "./request-deadline.js";
import {
  DEFAULT_RETRY,
  networkOutcome,
  parseRetryAfter,
  type RetrySettings,
  readRetryAfter,
  statusOutcome,
} from "./retry-policy.js";

export interface Timeouts {
  connectMs: number;
  /** Until the response headers arrive. */
  headersMs: number;
  /** Between two chunks of the body: a page streams steadily, so a quarter-minute of silence
   * is a stall. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 60_000, bodyMs: 15_000 };

/** How long one request may take, its retries and waits included: beyond it the request fails and
 * the next run tries again, rather than one stalling server holding a run for many minutes. Long
 * enough for the longest Retry-After honoured (two minutes) and a few retries. */
export const DEFAULT_DEADLINE_MS = 180_000;

export interface TransportOptions {
  baseUrl: string;
  concurrency: number;
  timeouts?: Partial<Timeouts>;
  /** Largest response body accepted, in bytes. */
  maxBodyBytes?: number;
  retry?: Partial<RetrySettings>;
  /** The deadline of one request, retries included (DEFAULT_DEADLINE_MS). */
  deadlineMs?: number;
  logger: Logger;
  /** The thread's CPU lane, which parsing bodies takes turns in; a lane of its own otherwise. */
  lane?: CpuLane;
  /** The share of the back-off and Retry-After waits waited (clock/waits.ts); 1 when absent. */
  waitScale?: number;
}

export interface JsonRequest {
  operation: string;
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** The full authorization header value; empty sends none. */
  authorization: string;
  /** The scheme in that value ("Bearer"); empty for a bare key. A rejection whose challenge asks
   * for another scheme says so. */
  authScheme?: string;
  /** Strings to scrub from anything this request may put into an error or a log line. */
  secrets: readonly string[];
  /** Names the key in a rejection message: a fingerprint, never the key. */
  keyLabel: string;
  /** 404 means what to the caller: "absent" answers null instead of throwing. */
  notFound?: "throw" | "absent";
  signal?: AbortSignal;
}

/** An attempt's answer, before its body is parsed. */
interface Answer {
  text: string;
  status: number | undefined;
  /** From the request to the body's end, its parse left out. */
  durationMs: number;
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

export class HttpTransport {
  readonly stats: TransportStats = { requests: 0, retries: 0, rateLimited: 0, failedRequests: 0 };
  private readonly agent: Agent;
  private readonly limit: LimitFunction;
  private readonly gate: RateGate;
  private readonly retry: RetrySettings;
  private readonly origin: string;
  private readonly basePath: string;
  /** host:port, named by network errors. */
  private readonly address: string;
  private readonly deadlineMs: number;
  private readonly listeners: ((event: AttemptEvent) => void)[] = [];
  private readonly waitScale: number;
  /** Where the CPU work of its answers takes turns: parsing here, checking and making rows in
   * those who read through it (cpu-lane.ts). */
  readonly lane: CpuLane;

  constructor(private readonly options: TransportOptions) {
    this.lane = options.lane ?? new CpuLane();
    this.waitScale = options.waitScale ?? DESIGNED_WAITS;
    const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    const base = new URL(options.baseUrl);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, "");
    this.address = `${base.hostname}:${base.port || (base.protocol === "https:" ? "443" : "80")}`;
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
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

  /** GET a path and parse its JSON, retrying what is worth retrying until its deadline. */
  async getJson(spec: JsonRequest): Promise<unknown> {
    const description: RequestDescription = {
      operation: spec.operation,
      target: describeTarget(this.basePath + spec.path, spec.query),
    };
    const deadline = new RequestDeadline(this.deadlineMs, spec.signal);
    let attempts = 0;
    try {
      return await pRetry(
        async (attempt) => {
          const answer = await this.limit(() => {
            deadline.start();
            attempts = attempt;
            return this.attempt(spec, description, attempt, deadline);
          });
          return answer === null ? null : await this.parse(answer, description, attempt);
        },
        {
          retries: this.retry.retries,
          minTimeout: scaledWait(this.retry.minDelayMs, this.waitScale),
          maxTimeout: scaledWait(this.retry.maxDelayMs, this.waitScale),
          factor: 2,
          randomize: true,
          signal: deadline.signal,
          shouldRetry: ({ error }) => this.willRetry(error, 1, deadline),
          onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
            if (error instanceof ApiError) error.attempts = attemptNumber;
            const willRetry = this.willRetry(error, retriesLeft, deadline);
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
        },
      );
    } catch (error) {
      this.stats.failedRequests++;
      if (error instanceof ApiError) throw error;
      // The deadline or the caller's signal ended a wait between attempts.
      if (deadline.expired)
        throw new ApiDeadlineError(description, this.address, deadline.ms, attempts);
      throw this.networkError(description, errorCode(error), "request aborted", false);
    } finally {
      deadline.dispose();
    }
  }

  private willRetry(error: Error, retriesLeft: number, deadline: RequestDeadline): boolean {
    return (
      error instanceof ApiError && error.retryable && retriesLeft > 0 && !deadline.signal.aborted
    );
  }

  /** One attempt's exchange, in a request slot: the body's text, or null for an absent record.
   * The slot is free again as soon as the body is in, before it is parsed. */
  private async attempt(
    spec: JsonRequest,
    description: RequestDescription,
    attemptNumber: number,
    deadline: RequestDeadline,
  ): Promise<Answer | null> {
    try {
      await this.gate.whenOpen(deadline.signal);
      deadline.signal.throwIfAborted();
    } catch (error) {
      throw this.toApiError(error, spec, description, deadline, attemptNumber);
    }
    this.stats.requests++;
    const started = performance.now();
    let status: number | undefined;
    try {
      const text = await this.exchange(spec, description, deadline.signal, (s) => {
        status = s;
      });
      const durationMs = performance.now() - started;
      if (text !== null) return { text, status, durationMs };
      this.gate.succeeded();
      this.emit(description, attemptNumber, { status, durationMs, outcome: "ok" });
      return null;
    } catch (error) {
      const apiError = this.toApiError(error, spec, description, deadline, attemptNumber);
      apiError.attempts = attemptNumber;
      const outcome = apiError.retryable ? "retryable" : "fatal";
      const code = apiError instanceof ApiNetworkError ? apiError.code : undefined;
      const durationMs = performance.now() - started;
      this.emit(description, attemptNumber, { status, durationMs, outcome, code });
      throw apiError;
    }
  }

  /** An answer's body parsed, in its turn of the thread's CPU lane (cpu-lane.ts); a body that is
   * not JSON is worth another attempt. */
  private async parse(
    answer: Answer,
    description: RequestDescription,
    attemptNumber: number,
  ): Promise<unknown> {
    let value: unknown;
    try {
      value = await this.lane.turn(PAGE_STEP.parse, () => JSON.parse(answer.text));
    } catch {
      const error = new ApiResponseError(description, "the body is not JSON", true);
      error.attempts = attemptNumber;
      this.emit(description, attemptNumber, { ...answer, outcome: "retryable" });
      throw error;
    }
    this.gate.succeeded();
    this.emit(description, attemptNumber, { ...answer, outcome: "ok" });
    return value;
  }

  /** One HTTP exchange; throws ApiError for statuses, anything else for transport failures. */
  private async exchange(
    spec: JsonRequest,
    description: RequestDescription,
    signal: AbortSignal,
    onStatus: (s: number) => void,
  ): Promise<string | null> {
    const response = await request(`${this.origin}${description.target}`, {
      method: "GET",
      dispatcher: this.agent,
      headers:
        spec.authorization === ""
          ? { accept: "application/json" }
          : { authorization: spec.authorization, accept: "application/json" },
      signal,
    });
    onStatus(response.statusCode);
    const outcome = statusOutcome(response.statusCode);
    const body = await response.body.text();
    if (outcome === "ok") return body;
    if (outcome === "not-found" && spec.notFound === "absent") return null;
    if (outcome === "rate-limited") {
      const retryAfterMs = this.rateLimitWait(
        description,
        firstHeaderValue(response.headers["retry-after"]),
      );
      this.stats.rateLimited++;
      this.gate.rateLimited(retryAfterMs);
      throw new ApiRateLimitedError(description, retryAfterMs);
    }
    if (outcome === "redirect") {
      const location = shownRedirectTarget(
        firstHeaderValue(response.headers.location),
        `${this.origin}${description.target}`,
        spec.secrets,
      );
      throw new ApiRedirectError(description, response.statusCode, location);
    }
    if (outcome === "key-rejected") {
      // A health check sends no credentials: no scheme advice there.
      const challenge = response.headers["www-authenticate"];
      const sentKey = spec.authorization !== "";
      throw new ApiKeyRejectedError(
        description,
        response.statusCode,
        spec.keyLabel,
        sentKey ? askedAuthScheme(challenge, spec.authScheme ?? "") : undefined,
        sentKey && challenge === undefined,
      );
    }
    if (outcome === "retry") throw new ApiServerError(description, response.statusCode);
    throw new ApiStatusError(
      description,
      response.statusCode,
      serverMessage(body, spec.secrets, ERROR_BODY_SNIPPET),
    );
  }

  /** The wait a 429 asks for, capped; a long one is announced, so a quiet run says why. */
  private rateLimitWait(
    description: RequestDescription,
    header: string | undefined,
  ): number | undefined {
    const waitMs = parseRetryAfter(header, this.retry.maxRetryAfterMs);
    if (waitMs !== undefined && waitMs >= this.retry.longWaitMs) {
      const requestedMs = readRetryAfter(header) ?? waitMs;
      const capped = requestedMs > waitMs;
      this.options.logger.warn(
        {
          operation: description.operation,
          target: description.target,
          waitMs,
          requestedMs,
          capped,
        },
        `GET ${description.target} was rate limited: waiting ${durationText(waitMs, "seconds")} before retrying (the server asked for ${durationText(requestedMs, "seconds")}${capped ? ", capped" : ""})`,
      );
    }
    return waitMs === undefined ? undefined : scaledWait(waitMs, this.waitScale);
  }

  private toApiError(
    error: unknown,
    spec: JsonRequest,
    description: RequestDescription,
    deadline: RequestDeadline,
    attemptNumber: number,
  ): ApiError {
    if (error instanceof ApiError) return error;
    if (deadline.expired)
      return new ApiDeadlineError(description, this.address, deadline.ms, attemptNumber);
    // The original error is dropped on purpose: only its code travels on, so nothing a library
    // attached to it (sockets, headers) can leak.
    const code = errorCode(error);
    const outcome = networkOutcome(code);
    const detail =
      outcome.description === "unexpected network error" && error instanceof Error
        ? `${outcome.description}: ${scrubSecrets(error.message, spec.secrets)}`
        : outcome.description;
    return this.networkError(description, code, detail, outcome.retryable, outcome.hint);
  }

  private networkError(
    description: RequestDescription,
    code: string,
    detail: string,
    retryable: boolean,
    hint?: string,
  ): ApiNetworkError {
    return new ApiNetworkError(description, {
      code,
      description: detail,
      retryable,
      address: this.address,
      ...(hint === undefined ? {} : { hint }),
    });
  }

  /** Tells the listeners (metrics) and, at debug level, the log. */
  private emit(
    description: RequestDescription,
    attempt: number,
    result: {
      status: number | undefined;
      durationMs: number;
      outcome: AttemptEvent["outcome"];
      code?: string | undefined;
    },
  ): void {
    const { operation, target } = description;
    const { status, durationMs, outcome, code } = result;
    const event = { operation, status, durationMs, outcome };
    for (const listener of this.listeners) listener(event);
    // Once per request: not even the line's text is built unless debug is on.
    if (!this.options.logger.isLevelEnabled("debug")) return;
    const answer = status === undefined ? `failed (${code ?? "no answer"})` : `answered ${status}`;
    const rounded = Math.round(durationMs);
    this.options.logger.debug(
      {
        operation,
        target,
        status,
        durationMs: rounded,
        attempt,
        outcome,
        ...(code ? { code } : {}),
      },
      `GET ${target} ${answer} in ${rounded} ms (attempt ${attempt})`,
    );
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
