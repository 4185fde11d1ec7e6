/** Whether the daemon is healthy: its last run succeeded, or its last success is recent. */
import type { RunStatus } from "../vocabulary.js";

export interface HealthReport {
  httpStatus: 200 | 503;
  body: {
    status: "starting" | "ok" | "degraded" | "failing";
    reason?: string;
    running: boolean;
    lastRun?: { status: RunStatus; finishedAt: string; error: string | null };
    lastSuccessAt?: string;
  };
}

export class HealthTracker {
  private running = false;
  private lastRun: { status: RunStatus; finishedAt: number; error: string | null } | undefined;
  private lastSuccessAt: number | undefined;

  constructor(
    /** How long after the last success a failing run still counts as healthy. */
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A success recorded before this process started (the database's last): a restart keeps
   * what it proves. A later success of this process wins. */
  successBefore(at: number): void {
    if (Number.isNaN(at)) return;
    this.lastSuccessAt = Math.max(this.lastSuccessAt ?? at, at);
  }

  runStarted(): void {
    this.running = true;
  }

  runFinished(status: RunStatus, error: string | null): void {
    this.running = false;
    const finishedAt = this.now();
    this.lastRun = { status, finishedAt, error };
    if (status === "succeeded") this.lastSuccessAt = finishedAt;
  }

  report(): HealthReport {
    const running = this.running;
    const lastSuccessAt =
      this.lastSuccessAt === undefined ? undefined : new Date(this.lastSuccessAt).toISOString();
    const last = this.lastRun;
    if (!last)
      return {
        httpStatus: 200,
        body: { status: "starting", running, ...(lastSuccessAt ? { lastSuccessAt } : {}) },
      };
    const lastRun = {
      status: last.status,
      finishedAt: new Date(last.finishedAt).toISOString(),
      error: last.error,
    };
    const base = { running, lastRun, ...(lastSuccessAt ? { lastSuccessAt } : {}) };
    if (last.status === "succeeded") return { httpStatus: 200, body: { status: "ok", ...base } };
    const reason = `the last run ${last.status}${last.error ? `: ${last.error}` : ""}`;
    if (this.lastSuccessAt !== undefined && this.now() - this.lastSuccessAt <= this.maxAgeMs) {
      return { httpStatus: 200, body: { status: "degraded", reason, ...base } };
    }
    const since = lastSuccessAt
      ? `, no success since ${lastSuccessAt}`
      : ", and none has succeeded yet";
    return { httpStatus: 503, body: { status: "failing", reason: `${reason}${since}`, ...base } };
  }
}
