/**
 * The health alerts, decided: what the facts after a run say of each alert (on, off, or nothing
 * when they do not tell), and which alerts that opens and closes. An alert opens when its state
 * starts and closes when it ends, whatever the runs in between: a sync failing every 15 minutes
 * for a day is one alert, not 96. Pure: the facts come from the run and the database
 * (daemon/notifier.ts).
 */

import { utcMinute } from "../clock/local-moment.js";
import type { LocationStats } from "../sync/stats.js";
import type { RunOutcome } from "../vocabulary.js";
import { syncVerdict } from "./sync-failing.js";

export const ALERT_KINDS = [
  "sync failing",
  "key rejected",
  "data stale",
  "audit repairing",
] as const;

export type AlertKind = (typeof ALERT_KINDS)[number];

export interface Finding {
  kind: AlertKind;
  /** A key's fingerprint, a location's id; empty for the sync as a whole. */
  subject: string;
  /** The state holds (open the alert), or is known to have ended (close it). */
  on: boolean;
  /** What was found, in a line a manager can act on. Kept with the alert and shown later (status,
   * its messages): it says when, never how long ago. */
  detail: string;
}

/** A location whose orders no run read completely for this long has stale data. */
export const STALE_AFTER_MS = 86_400_000;

/** The sync as a whole, by the rule /healthz answers by too (sync-failing.ts). */
export function syncFailing(runs: readonly RunOutcome[], now: Date): Finding {
  const { failing, why } = syncVerdict(runs, now);
  return { kind: "sync failing", subject: "", on: failing, detail: why };
}

/** Each key the run tried: rejected by the API, or accepted. */
export function keysRejected(locations: readonly LocationStats[]): Finding[] {
  return locations.map((location) => {
    const named = `${location.key}${location.name || location.label ? ` (${location.name ?? location.label})` : ""}`;
    return {
      kind: "key rejected",
      subject: location.key,
      on: location.keyRejected,
      detail: location.keyRejected
        ? `the API rejects ${named}: check the key in POS_API_KEYS or the config file`
        : `the API accepts ${named} again`,
    };
  });
}

/** Each location the audit proved days of in the run: repairing when some disagreed. */
export function auditRepairs(locations: readonly LocationStats[]): Finding[] {
  return locations.flatMap((location) => {
    const { audit, locationId } = location;
    if (!audit || audit.windows === 0 || locationId === null) return [];
    return [
      {
        kind: "audit repairing" as const,
        subject: locationId,
        on: audit.repairs > 0,
        detail:
          audit.repairs > 0
            ? `${location.name ?? locationId}: the audit found ${audit.repairs} stored day(s) that no longer agree with the API and read them again (see status, and history_repairs)`
            : `${location.name ?? locationId}: the ${audit.windows} day(s) the audit proved last agree with the API`,
      },
    ];
  });
}

/** Each location by when its orders were last read completely: stale after STALE_AFTER_MS. */
export function staleData(
  locations: readonly { id: string; name: string | null; lastReadAt: string | undefined }[],
  now: Date,
): Finding[] {
  return locations.flatMap((location) =>
    location.lastReadAt === undefined
      ? []
      : [
          {
            kind: "data stale" as const,
            subject: location.id,
            on: now.getTime() - Date.parse(location.lastReadAt) > STALE_AFTER_MS,
            detail: `${location.name ?? location.id}: its orders were last read at ${utcMinute(location.lastReadAt)}`,
          },
        ],
  );
}

export interface OpenAlertState {
  id: number;
  kind: string;
  subject: string;
}

export interface AlertChanges {
  opens: Finding[];
  closes: { alert: OpenAlertState; why: string }[];
}

/**
 * What the findings change: an alert opens for a state found on that has none open, closes for
 * one found off, and closes when its subject is no longer configured (`retired`); an alert the
 * facts say nothing of stays as it is.
 */
export function alertChanges(
  open: readonly OpenAlertState[],
  findings: readonly Finding[],
  retired: (alert: OpenAlertState) => boolean,
): AlertChanges {
  const openOf = (kind: string, subject: string) =>
    open.find((alert) => alert.kind === kind && alert.subject === subject);
  const opens = findings.filter((f) => f.on && openOf(f.kind, f.subject) === undefined);
  const closes: AlertChanges["closes"] = [];
  for (const alert of open) {
    const finding = findings.find((f) => f.kind === alert.kind && f.subject === alert.subject);
    if (finding !== undefined && !finding.on) closes.push({ alert, why: finding.detail });
    else if (finding === undefined && retired(alert))
      closes.push({ alert, why: "no longer configured" });
  }
  return { opens, closes };
}
