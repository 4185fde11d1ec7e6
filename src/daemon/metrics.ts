/** The daemon's figures in the Prometheus text format (prom-client). */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { ALERT_KINDS } from "../alerts/alert-rules.js";
import type { AttemptEvent } from "../api/transport.js";
import { daysBetween } from "../clock/days.js";
import type { DeliveryState } from "../db/reads/deliveries.js";
import type { StatusReport } from "../read-models/status.js";
import type { RunResult } from "../sync/run-result.js";
import type { StreamStats } from "../sync/stats.js";

const OUTCOMES = ["inserted", "updated", "unchanged", "rejected", "deleted"] as const;

function succeeded(stats: StreamStats): boolean {
  return (
    stats.windows.incomplete + stats.windows.failed + stats.errors.length === 0 &&
    stats.windows.complete > 0
  );
}

export class DaemonMetrics {
  readonly registry = new Registry();
  private readonly runs = new Counter({
    name: "pos_sync_runs_total",
    help: "Sync runs by final status.",
    labelNames: ["status"],
    registers: [this.registry],
  });
  private readonly runDuration = new Histogram({
    name: "pos_sync_run_duration_seconds",
    help: "Wall time of sync runs.",
    buckets: [1, 5, 15, 60, 300, 900, 3600],
    registers: [this.registry],
  });
  private readonly running = new Gauge({
    name: "pos_sync_run_in_progress",
    help: "1 while a sync run is in progress.",
    registers: [this.registry],
  });
  private readonly records = new Counter({
    name: "pos_sync_records_total",
    help: "Records handled, per location, stream and outcome.",
    labelNames: ["location", "stream", "outcome"],
    registers: [this.registry],
  });
  private readonly requests = new Counter({
    name: "pos_sync_api_requests_total",
    help: "HTTP requests to the API (every attempt), per operation and status code.",
    labelNames: ["operation", "status"],
    registers: [this.registry],
  });
  private readonly requestDuration = new Histogram({
    name: "pos_sync_api_request_duration_seconds",
    help: "Latency of API requests, per operation.",
    labelNames: ["operation"],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly retries = new Counter({
    name: "pos_sync_api_retries_total",
    help: "Requests retried after a retryable failure.",
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: "pos_sync_api_rate_limited_total",
    help: "429 answers received.",
    registers: [this.registry],
  });
  private readonly audited = new Counter({
    name: "pos_sync_audit_days_total",
    help: "Stored days the audit proved again against the API's listing, per location and outcome (agreed, repaired).",
    labelNames: ["location", "outcome"],
    registers: [this.registry],
  });
  private readonly auditRequests = new Counter({
    name: "pos_sync_audit_requests_total",
    help: "Requests the audit's proofs made (the days read again count as the run's).",
    labelNames: ["location"],
    registers: [this.registry],
  });
  private readonly lastSuccess = new Gauge({
    name: "pos_sync_last_success_timestamp_seconds",
    help: "When a stream of a location last synced without a failure (Unix time).",
    labelNames: ["location", "stream"],
    registers: [this.registry],
  });
  private readonly windowLag = new Gauge({
    name: "pos_sync_window_lag_days",
    help: "Days between today and the last day complete without a gap, per location and day stream.",
    labelNames: ["location", "stream"],
    registers: [this.registry],
  });
  private readonly locationInfo = new Gauge({
    name: "pos_sync_location_info",
    help: "Locations synced, with their names (value 1).",
    labelNames: ["location", "name"],
    registers: [this.registry],
  });

  private readonly messages = new Counter({
    name: "pos_sync_messages_total",
    help: "Attempts to send a morning report or an alert, per channel and outcome (sent, failed).",
    labelNames: ["channel", "outcome"],
    registers: [this.registry],
  });
  private readonly outboxWaiting = new Gauge({
    name: "pos_sync_outbox_waiting",
    help: "Messages waiting in the outbox to be sent (again).",
    registers: [this.registry],
  });
  private readonly alertsOpen = new Gauge({
    name: "pos_sync_alerts_open",
    help: "Health alerts open, per kind.",
    labelNames: ["kind"],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  onAttempt(event: AttemptEvent): void {
    this.requests.inc({
      operation: event.operation,
      status: event.status === undefined ? "error" : String(event.status),
    });
    this.requestDuration.observe({ operation: event.operation }, event.durationMs / 1000);
    if (event.status === 429) this.rateLimited.inc();
  }

  runStarted(): void {
    this.running.set(1);
  }

  runFinished(result: RunResult, status: StatusReport): void {
    this.running.set(0);
    this.runs.inc({ status: result.status });
    this.runDuration.observe((Date.parse(result.finishedAt) - Date.parse(result.startedAt)) / 1000);
    this.retries.inc(result.retries);
    const finishedSeconds = Date.parse(result.finishedAt) / 1000;
    for (const location of result.stats.locations) {
      if (!location.locationId) continue;
      const { audit } = location;
      if (audit) {
        const labels = { location: location.locationId };
        this.audited.inc({ ...labels, outcome: "agreed" }, audit.windows - audit.repairs);
        this.audited.inc({ ...labels, outcome: "repaired" }, audit.repairs);
        this.auditRequests.inc(labels, audit.requests);
      }
      for (const [stream, stats] of Object.entries(location.streams)) {
        for (const outcome of OUTCOMES) {
          if (stats[outcome] > 0)
            this.records.inc({ location: location.locationId, stream, outcome }, stats[outcome]);
        }
        if (succeeded(stats))
          this.lastSuccess.set({ location: location.locationId, stream }, finishedSeconds);
      }
    }
    for (const location of status.locations) {
      if (location.name) this.locationInfo.set({ location: location.id, name: location.name }, 1);
      for (const stream of location.streams) {
        if (stream.readThrough) {
          this.windowLag.set(
            { location: location.id, stream: stream.stream },
            daysBetween(stream.readThrough, stream.today),
          );
        }
      }
    }
  }

  messageAttempted(channel: string, outcome: "sent" | "failed"): void {
    this.messages.inc({ channel, outcome });
  }

  deliveriesRead(state: DeliveryState): void {
    this.outboxWaiting.set(state.waiting);
    this.alertsOpen.reset();
    for (const kind of ALERT_KINDS)
      this.alertsOpen.set({ kind }, state.openAlerts.filter((a) => a.kind === kind).length);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
