/**
 * The probe's requests: one at a time, paced, within a fixed budget, never retried, and stopped
 * at the first sign of a rate limit (a 429, or the server's own count of requests left running
 * low). Each exchange is kept for the report; the key travels in the header only.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";
import { errorCode, firstHeaderValue, serverMessage } from "../api/error-details.js";
import { shownRedirectTarget } from "../api/redirect-target.js";
import { describeTarget } from "../api/transport.js";
import { DESIGNED_WAITS, scaledWait } from "../clock/waits.js";
import {
  announcesLimit,
  type RateLimitHeaders,
  readRateLimitHeaders,
} from "./rate-limit-headers.js";

/** The most requests one probe sends: a few dozen, so that a probe never costs a partner much. */
export const PROBE_BUDGET = 40;
/** Time between the starts of two requests: four a second at most. */
export const DEFAULT_PACE_MS = 250;
/** Requests left in the server's window below which the probe stops: the sync needs them more. */
const RATE_LIMIT_RESERVE = 2;
const TIMEOUT_MS = 15_000;
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MESSAGE_SNIPPET = 120;

/** Why the probe stopped before its end. */
export type StopReason =
  | "rate-limited"
  | "rate-limit-low"
  | "no-answer"
  | "budget"
  | "key-rejected"
  | "base-url"
  | "server-error";

/** Thrown to end the probe early; the report says why. */
export class ProbeStop extends Error {
  constructor(
    readonly reason: StopReason,
    message: string,
  ) {
    super(message);
  }
}

export interface Exchange {
  /** What the request was for ("auth: Bearer", "taxes path"). */
  purpose: string;
  /** Path and query, without the base address. */
  target: string;
  /** Whether the key was sent. */
  withKey: boolean;
  /** How it was sent, when that is the question ("Bearer <key>"). */
  keyForm?: string;
  status: number | null;
  ms: number;
  /** The server's message on an error answer, or the network error's code. */
  note?: string;
}

export interface ProbeAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

export interface ProbeHttpOptions {
  baseUrl: string;
  paceMs?: number;
  budget?: number;
  /** Strings to scrub from anything the report keeps (the keys). */
  secrets: readonly string[];
  /** The share of the pacing waited (clock/waits.ts); 1 when absent. */
  waitScale?: number;
}

export interface ProbeQuery {
  [name: string]: string | number | boolean;
}

export interface ProbeRequestOptions {
  query?: ProbeQuery;
  /** Whether this answer's rate-limit headers describe the probed key's window (not so for
   * another key's). */
  tracksRateLimit?: boolean;
  /** How the key is sent, for the report, when that is the question ("Bearer <key>"). */
  keyForm?: string;
}

export class ProbeHttp {
  readonly exchanges: Exchange[] = [];
  /** What rate-limit headers said, from the latest answer that had any. */
  rateLimit: RateLimitHeaders | undefined;
  readonly budget: number;
  readonly paceMs: number;
  private readonly agent = new Agent({
    connections: 1,
    connect: { timeout: TIMEOUT_MS },
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
    maxResponseSize: MAX_BODY_BYTES,
  });
  private readonly origin: string;
  private readonly basePath: string;
  private lastStart = 0;
  private readonly waitScale: number;

  constructor(private readonly options: ProbeHttpOptions) {
    const base = new URL(options.baseUrl);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, "");
    this.budget = options.budget ?? PROBE_BUDGET;
    this.paceMs = options.paceMs ?? DEFAULT_PACE_MS;
    this.waitScale = options.waitScale ?? DESIGNED_WAITS;
  }

  get sent(): number {
    return this.exchanges.length;
  }

  get remainingBudget(): number {
    return this.budget - this.sent;
  }

  /** One GET; `authorization` empty sends no key. Throws ProbeStop, never anything else. */
  async get(
    purpose: string,
    path: string,
    authorization: string,
    options: ProbeRequestOptions = {},
  ): Promise<ProbeAnswer> {
    this.checkBeforeSending();
    await this.pace();
    const shown = describeTarget(path, options.query);
    const exchange: Exchange = {
      purpose,
      target: shown,
      withKey: authorization !== "",
      ...(options.keyForm === undefined ? {} : { keyForm: options.keyForm }),
      status: null,
      ms: 0,
    };
    this.exchanges.push(exchange);
    const started = performance.now();
    try {
      const response = await request(`${this.origin}${this.basePath}${shown}`, {
        method: "GET",
        dispatcher: this.agent,
        headers:
          authorization === ""
            ? { accept: "application/json" }
            : { accept: "application/json", authorization },
      });
      const text = await response.body.text();
      exchange.status = response.statusCode;
      exchange.ms = Math.round(performance.now() - started);
      const json = parseJson(text);
      if (response.statusCode >= 300 && response.statusCode < 400) {
        const where = firstHeaderValue(response.headers.location);
        const url = `${this.origin}${this.basePath}${shown}`;
        exchange.note = `redirects to ${shownRedirectTarget(where, url, this.options.secrets) ?? "nowhere said"}`;
      } else if (response.statusCode >= 400) {
        exchange.note = serverMessage(text, this.options.secrets, MESSAGE_SNIPPET);
      }
      const limits = readRateLimitHeaders(response.headers);
      if (options.tracksRateLimit !== false) this.noteRateLimit(limits);
      this.stopOnSlowDown(response.statusCode, limits.retryAfter);
      return { status: response.statusCode, headers: response.headers, json };
    } catch (error) {
      if (error instanceof ProbeStop) throw error;
      exchange.ms = Math.round(performance.now() - started);
      exchange.note = errorCode(error);
      throw new ProbeStop(
        "no-answer",
        `no answer from ${this.origin} to GET ${shown} (${exchange.note})`,
      );
    }
  }

  /** A 429, or a 503 that says when to come back: the server asks for fewer requests. */
  private stopOnSlowDown(status: number, retryAfter: string | undefined): void {
    if (status !== 429 && !(status === 503 && retryAfter !== undefined)) return;
    const what = status === 429 ? "429 (rate limited)" : "503 (unavailable)";
    throw new ProbeStop(
      "rate-limited",
      `the server answered ${what} to request ${this.sent}` +
        (retryAfter === undefined ? "" : `; it asks to wait ${waitText(retryAfter)} (Retry-After)`),
    );
  }

  private checkBeforeSending(): void {
    if (this.sent >= this.budget) {
      throw new ProbeStop("budget", `the probe's budget of ${this.budget} requests is spent`);
    }
    const remaining = this.rateLimit?.remaining;
    if (remaining !== undefined && remaining <= RATE_LIMIT_RESERVE) {
      const reset = this.rateLimit?.resetSeconds;
      throw new ProbeStop(
        "rate-limit-low",
        `the server says ${remaining} request(s) are left in its rate-limit window` +
          (reset === undefined ? "" : ` (it resets in ${reset} s)`) +
          ": stopped to leave them to the sync",
      );
    }
  }

  private async pace(): Promise<void> {
    const wait = this.lastStart + scaledWait(this.paceMs, this.waitScale) - performance.now();
    if (wait > 0) await sleep(wait);
    this.lastStart = performance.now();
  }

  private noteRateLimit(headers: RateLimitHeaders): void {
    if (announcesLimit(headers) || headers.retryAfter !== undefined) this.rateLimit = headers;
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

/** Retry-After is seconds or an HTTP date. */
function waitText(retryAfter: string): string {
  return /^\d+$/.test(retryAfter.trim()) ? `${retryAfter.trim()} s` : `until ${retryAfter.trim()}`;
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
