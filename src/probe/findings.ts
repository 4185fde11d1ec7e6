/** What a probe found: the shape `pos-sync probe --json` prints and its text (ui/format-probe.ts) reads. */
import type { Exchange, StopReason } from "./probe-http.js";
import type { RateLimitHeaders } from "./rate-limit-headers.js";
import type { Contradiction } from "./spec-conformance.js";

/** observed: an answer showed it; inferred: deduced from answers; unknown: not determined. */
export type Certainty = "observed" | "inferred" | "unknown";

export type Topic =
  | "auth"
  | "report-path"
  | "payment-methods-path"
  | "taxes-path"
  | "health-path"
  | "health-key"
  | "list-order"
  | "page-index"
  | "past-end"
  | "next-page-token"
  | "oversize-page"
  | "rate-limits"
  | "catalog";

export interface Finding {
  topic: Topic;
  /** What it is about, for people: "Authorization header". */
  title: string;
  /** What was found, in a few words: "Bearer <key>". */
  answer: string;
  certainty: Certainty;
  /** The answers that show it: "GET /v1/locations/own?devices=true, bare key: 401". */
  evidence: string[];
  /** What pos-sync does about it, when that is worth saying ("pagination already copes"). */
  sync?: string;
  /** Something the user must act on. */
  problem?: string;
}

/** A setting the probe determined, or could not. */
export interface SettingFinding {
  name:
    | "POS_AUTH_SCHEME"
    | "POS_PATH_REPORT"
    | "POS_PATH_PAYMENT_METHODS"
    | "POS_PATH_TAXES"
    | "POS_PATH_HEALTH";
  /** The value to use; null when not determined (not found, or the probe stopped first). */
  value: string | null;
  /** The value in effect now (settings or pos-sync's default). */
  current: string;
  /** How surely the value was found: --write-config writes observed values only. */
  certainty?: "observed" | "inferred";
  /** Why there is no value: "not found; set POS_PATH_TAXES by hand". */
  missing?: string;
}

export interface OtherKey {
  key: string;
  /** null: not told (not checked, the budget being spent or the probe stopped, or answered
   * neither 200 nor a refusal). */
  accepted: boolean | null;
  /** The status of the check, when one was sent. */
  status?: number;
  location?: string;
}

export interface ProbeFindings {
  apiUrl: string;
  /** The fingerprint of the key the probe used. */
  key: string;
  requests: { sent: number; budget: number; paceMs: number; elapsedMs: number };
  /** Set when the probe ended before its last step. */
  stopped?: { reason: StopReason; message: string };
  findings: Finding[];
  settings: SettingFinding[];
  /** Records read and checked against the spec, per kind. */
  sample: Record<string, number>;
  contradictions: Contradiction[];
  rateLimitHeaders?: RateLimitHeaders;
  otherKeys: OtherKey[];
  exchanges: Exchange[];
}

/** Whether every setting was determined and the probe ran to its end. */
export function isComplete(probed: ProbeFindings): boolean {
  return probed.stopped === undefined && probed.settings.every((s) => s.value !== null);
}
