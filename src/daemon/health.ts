/**
 * What /healthz answers. 503 `failing` while the sync is failing, by the rule the sync-failing
 * alert opens by and with its reason (alerts/sync-failing.ts): a monitor and a manager are never
 * told two things. Otherwise 200: `starting` before this process's first run ends, `ok` after a
 * success, `degraded` while runs do not succeed short of that rule. The runs are held here, not
 * read at each request: /healthz answers whatever the database does, and a run the database
 * could not record (a full disk) counts too.
 */
import { RUNS_DECIDED_ON, syncVerdict } from "../alerts/sync-failing.js";
import type { RunOutcome, RunStatus } from "../vocabulary.js";

export interface HealthAnswer {
  httpStatus: 200 | 503;
  body: {
    status: "starting" | "ok" | "degraded" | "failing";
    reason?: string;
    running: boolean;
    lastRun?: { status: RunStatus; finishedAt: string; error: string | null };
    lastSuccessAt?: string;
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

export class HealthTracker {
  private running = false;
  private startedAt: number | undefined;
  private lastRun: { status: RunStatus; finishedAt: number; error: string | null } | undefined;
  private lastSuccessAt: number | undefined;
  /** Newest first, as the alert reads them from the database. */
  private runs: RunOutcome[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** The runs and the last success the database recorded before this process started: a restart
   * forgets neither a failing streak nor what a success proves. A later run of this process wins. */
  recall(runs: readonly RunOutcome[], lastSuccessAt: string | null): void {
    this.runs = [...this.runs, ...runs].slice(0, RUNS_DECIDED_ON);
    const at = lastSuccessAt === null ? Number.NaN : Date.parse(lastSuccessAt);
    if (!Number.isNaN(at)) this.lastSuccessAt = Math.max(this.lastSuccessAt ?? at, at);
  }

  runStarted(): void {
    this.running = true;
    this.startedAt = this.now();
  }

  runFinished(status: RunStatus, error: string | null): void {
    this.running = false;
    const finishedAt = this.now();
    this.lastRun = { status, finishedAt, error };
    if (status === "succeeded") this.lastSuccessAt = finishedAt;
    this.runs.unshift({ status, startedAt: iso(this.startedAt ?? finishedAt), error });
    this.runs.length = Math.min(this.runs.length, RUNS_DECIDED_ON);
  }

  answer(): HealthAnswer {
    const verdict = syncVerdict(this.runs, new Date(this.now()));
    const last = this.lastRun;
    const body = {
      running: this.running,
      ...(last
        ? { lastRun: { status: last.status, finishedAt: iso(last.finishedAt), error: last.error } }
        : {}),
      ...(this.lastSuccessAt === undefined ? {} : { lastSuccessAt: iso(this.lastSuccessAt) }),
    };
    if (verdict.failing)
      return { httpStatus: 503, body: { status: "failing", reason: verdict.why, ...body } };
    if (!last) return { httpStatus: 200, body: { status: "starting", ...body } };
    if (last.status === "succeeded") return { httpStatus: 200, body: { status: "ok", ...body } };
    return { httpStatus: 200, body: { status: "degraded", reason: verdict.why, ...body } };
  }
}
