/**
 * The hostile world the simulator can play: slow, failing, rate-limiting and disconnecting
 * servers, shifting and lying pages, malformed records. Random faults draw from a seeded stream;
 * scripted faults, queued by tests, hit the next matching requests exactly.
 */
import type { Operation } from "./operations.js";
import { hashToUnit, Random } from "./random.js";

/** What a list page past the last one answers: an empty page, 404, 400, or the last page
 * again. */
export type PastEndBehaviour = "empty" | "not-found" | "bad-request" | "last-page";

export const PAST_END_BEHAVIOURS: readonly PastEndBehaviour[] = [
  "empty",
  "not-found",
  "bad-request",
  "last-page",
];

/** What `size` above 100 gets: capped at 100 (what the spec states), refused with a 400, or
 * served as asked. */
export type OversizePageBehaviour = "cap" | "refuse" | "accept";

export const OVERSIZE_PAGE_BEHAVIOURS: readonly OversizePageBehaviour[] = [
  "cap",
  "refuse",
  "accept",
];

/** What nextPageToken holds: the next index encoded (base64url JSON), an opaque string, or
 * nothing at all. */
export type PageTokenForm = "encoded-index" | "opaque" | "none";

export const PAGE_TOKEN_FORMS: readonly PageTokenForm[] = ["encoded-index", "opaque", "none"];

export interface FaultSettings {
  /** Lists newest first instead of oldest first (the spec does not show the direction). */
  descending: boolean;
  /** Added to every response. */
  latencyMs: number;
  /** Share of API requests answered with a 5xx. */
  serverErrorRate: number;
  /** Share of API requests answered 429 with Retry-After. */
  rateLimitRate: number;
  retryAfterForm: "seconds" | "http-date";
  retryAfterSeconds: number;
  /** Share of API requests whose connection is closed abruptly, half before the headers, half
   * in the middle of the body. */
  dropRate: number;
  /** Share of API requests delayed by `slowMs` more. */
  slowRate: number;
  slowMs: number;
  /** Share of records served malformed; the same records every time. */
  malformedRate: number;
  /** New orders added to today's open session on each orders list request that covers today. */
  liveOrdersPerRequest: number;
  /** Stop adding live orders after this many in all (null: never stop). */
  liveOrdersLimit: number | null;
  /** Each orders page after the first also carries the last record of the page before it. */
  duplicatesAcrossPages: boolean;
  /** Each orders page after the first also carries a newer version of the first record of the
   * page before it (the order changed between the two requests). */
  changesBetweenPages: boolean;
  /** What a list page past the last one answers. */
  pastEnd: PastEndBehaviour;
  /** Added to meta.totalCount: a server whose counts cannot be trusted. */
  totalCountSkew: number;
  /** What `size` above 100 gets. */
  oversizePage: OversizePageBehaviour;
  /** What nextPageToken holds. */
  pageToken: PageTokenForm;
  /** Every index serves the first page (a server that cannot be paged). */
  ignoresIndex: boolean;
  /** The health operation asks for the key, as every other one does (the spec does not say). */
  healthNeedsKey: boolean;
  /** Requests each key may make per minute (a fixed window, announced in X-RateLimit-* headers
   * on every answer); null: no limit and no headers. */
  rateLimitPerMinute: number | null;
}

export const DEFAULT_FAULTS: FaultSettings = {
  descending: false,
  latencyMs: 0,
  serverErrorRate: 0,
  rateLimitRate: 0,
  retryAfterForm: "seconds",
  retryAfterSeconds: 1,
  dropRate: 0,
  slowRate: 0,
  slowMs: 0,
  malformedRate: 0,
  liveOrdersPerRequest: 0,
  liveOrdersLimit: null,
  duplicatesAcrossPages: false,
  changesBetweenPages: false,
  pastEnd: "empty",
  totalCountSkew: 0,
  oversizePage: "cap",
  pageToken: "encoded-index",
  ignoresIndex: false,
  healthNeedsKey: false,
  rateLimitPerMinute: null,
};

/** One fault aimed at the next request (of an operation, when given). */
export type ScriptedFault = { operation?: Operation } & (
  | { kind: "status"; status: number; retryAfter?: string }
  | { kind: "drop"; when: "before-headers" | "mid-body" }
  | { kind: "delay"; ms: number }
);

export type FaultDecision =
  | { kind: "none" }
  | { kind: "status"; status: number; retryAfter?: string }
  | { kind: "drop"; when: "before-headers" | "mid-body" }
  | { kind: "delay"; ms: number };

export class FaultController {
  private settings: FaultSettings;
  private readonly script: ScriptedFault[] = [];
  private readonly random: Random;
  private liveOrdersAdded = 0;

  constructor(
    private readonly seed: number,
    initial: Partial<FaultSettings> = {},
  ) {
    this.settings = { ...DEFAULT_FAULTS, ...initial };
    this.random = new Random(seed, "faults");
  }

  get current(): Readonly<FaultSettings> {
    return this.settings;
  }

  set(changes: Partial<FaultSettings>): void {
    this.settings = { ...this.settings, ...changes };
  }

  reset(): void {
    this.settings = { ...DEFAULT_FAULTS };
    this.script.length = 0;
    this.liveOrdersAdded = 0;
  }

  /** Queues faults for the next matching requests, in order. */
  inject(...faults: ScriptedFault[]): void {
    this.script.push(...faults);
  }

  /** How many live orders to add for this request, within the limit; counts them as added. */
  takeLiveOrders(): number {
    const { liveOrdersPerRequest, liveOrdersLimit } = this.settings;
    const remaining =
      liveOrdersLimit === null ? liveOrdersPerRequest : liveOrdersLimit - this.liveOrdersAdded;
    const count = Math.max(0, Math.min(liveOrdersPerRequest, remaining));
    this.liveOrdersAdded += count;
    return count;
  }

  get pendingScripted(): number {
    return this.script.length;
  }

  /** The fault for this request: a scripted one if one is queued for it, else a random draw. */
  decide(operation: Operation): FaultDecision {
    const index = this.script.findIndex(
      (f) => f.operation === undefined || f.operation === operation,
    );
    if (index >= 0) {
      const [scripted] = this.script.splice(index, 1);
      if (scripted) {
        const { operation: _target, ...decision } = scripted;
        return decision;
      }
    }
    return this.randomDecision();
  }

  private randomDecision(): FaultDecision {
    const s = this.settings;
    const roll = this.random.next();
    let threshold = s.serverErrorRate;
    if (roll < threshold)
      return { kind: "status", status: this.random.pick([500, 502, 503, 503, 504]) };
    threshold += s.rateLimitRate;
    if (roll < threshold) return { kind: "status", status: 429, retryAfter: this.retryAfter() };
    threshold += s.dropRate;
    if (roll < threshold) {
      return { kind: "drop", when: this.random.chance(0.5) ? "before-headers" : "mid-body" };
    }
    threshold += s.slowRate;
    if (roll < threshold) return { kind: "delay", ms: s.slowMs };
    return { kind: "none" };
  }

  retryAfter(): string {
    const seconds = this.settings.retryAfterSeconds;
    if (this.settings.retryAfterForm === "seconds") return String(seconds);
    return new Date(Date.now() + seconds * 1000).toUTCString();
  }

  /** Whether a record is served malformed: decided by its id, so always the same records. */
  isMalformed(recordId: string): boolean {
    const rate = this.settings.malformedRate;
    return rate > 0 && hashToUnit(`${this.seed}:malformed:${recordId}`) < rate;
  }
}
