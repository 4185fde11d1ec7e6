/** `pos-sync status` as text: per location and stream, what is complete, open or missing. */
import { daysBetween } from "../clock/days.js";
import { durationBetween } from "../clock/durations.js";
import { type DeliveryState, UNDELIVERED_DAYS } from "../db/reads/deliveries.js";
import { shownMessageKey } from "../messages/message-keys.js";
import { plural } from "../plural.js";
import type {
  AuditProgress,
  DayStreamStatus,
  Gap,
  LocationStatus,
  RunSummary,
  SnapshotStatus,
  StatusReport,
} from "../read-models/status.js";
import { formatRanges } from "../sync/plan.js";
import { visible } from "../terminal-text.js";
import { type CalendarStyle, calendarLegend, calendarLine } from "./terminal-calendar.js";
import { number } from "./text.js";

export interface FormatStatusOptions {
  /** ANSI colours in the calendars (the characters are the same without them). */
  color?: boolean;
}

function when(timestamp: string | null): string {
  return timestamp ? timestamp.slice(0, 16).replace("T", " ") : "never";
}

function gapText(gap: Gap): string {
  const days = gap.from === gap.to ? gap.from : `${gap.from}..${gap.to}`;
  return `${days} ${gap.status}${gap.error ? ` (${visible(gap.error)})` : ""}`;
}

/** How a run that did not record its end stands, as far as this host can tell. */
function unfinishedText(run: RunSummary): string {
  switch (run.process) {
    case "alive":
      return `not finished yet (process ${run.pid})`;
    case "gone":
      return `its process ${run.pid} ended without finishing it (killed?); the next sync reads again what it left`;
    case "other-host":
      return `not finished, or interrupted: its process ${run.pid} runs on ${visible(run.hostname ?? "")}, which cannot be checked from here`;
    default:
      return "not finished, or interrupted: the pos-sync that started it recorded no process to check";
  }
}

function runLine(run: RunSummary | null): string {
  if (!run) return "No run yet: start one with pos-sync sync";
  const status =
    run.process === "other-host" || run.process === "no-pid"
      ? "running or interrupted"
      : run.status;
  const end = run.finishedAt
    ? `took ${durationBetween(run.startedAt, run.finishedAt, "tenths")}`
    : unfinishedText(run);
  const requests = run.requests === null ? "" : `, ${number.format(run.requests)} requests`;
  return (
    `Last run #${run.id} ${status} (${run.trigger}), started ${when(run.startedAt)} UTC, ` +
    `${end}${requests}${run.error ? `: ${visible(run.error)}` : ""}`
  );
}

function locationName(location: LocationStatus): string {
  if (location.name) return visible(location.name);
  return location.read ? "(no name)" : "(location not read yet)";
}

const INDENT = " ".repeat(11);

/** The stream's recent days, between the first and the last of them, said to be the latest when
 * its history starts earlier; none when never synced. */
function calendarText(stream: DayStreamStatus, style: CalendarStyle): string | undefined {
  const first = stream.calendar[0];
  const last = stream.calendar.at(-1);
  if (!first || !last) return undefined;
  const latest =
    stream.firstDay !== null && stream.firstDay < first.day
      ? ` (the latest ${stream.calendar.length} days)`
      : "";
  return `${INDENT}${first.day} ${calendarLine(stream.calendar, style)} ${last.day}${latest}`;
}

function streamLines(stream: DayStreamStatus, style: CalendarStyle): string[] {
  const head = `  ${stream.stream.padEnd(8)}`;
  const lines: string[] = [];
  if (!stream.firstDay) {
    lines.push(`${head} never synced`);
  } else {
    const behind = stream.completeThrough
      ? daysBetween(stream.completeThrough, stream.today)
      : null;
    const open =
      stream.openDays.length > 0
        ? `, ${formatRanges(stream.openDays)} open (read before the day ended)`
        : "";
    const deleted =
      stream.deleted > 0 ? ` (+${number.format(stream.deleted)} deleted upstream)` : "";
    lines.push(
      `${head} complete through ${stream.completeThrough ?? "—"}${behind && behind > 1 ? ` (${behind} days behind)` : ""}${open}, ` +
        `${stream.completeDays} complete days since ${stream.firstDay}, ${number.format(stream.rows)} rows${deleted}, ` +
        `${stream.rejected} rejected, last synced ${when(stream.lastSyncedAt)}`,
    );
    const calendar = calendarText(stream, style);
    if (calendar) lines.push(calendar);
    const gaps = stream.gaps.slice(0, 5).map(gapText);
    if (gaps.length > 0)
      lines.push(
        `${INDENT}not complete: ${gaps.join("; ")}${stream.gaps.length > 5 ? `; and ${stream.gaps.length - 5} more` : ""}`,
      );
  }
  if (stream.futureDays.length > 0)
    lines.push(
      `${INDENT}ignored: windows stored for days after today (${formatRanges(stream.futureDays)})`,
    );
  return lines;
}

function snapshotLine(snapshot: SnapshotStatus): string {
  const tables = Object.entries(snapshot.tables)
    .map(
      ([table, n]) =>
        `${number.format(n.live)} ${table.replace("_", " ")}${n.deleted ? ` (+${n.deleted} deleted)` : ""}`,
    )
    .join(", ");
  const state =
    snapshot.status && snapshot.status !== "complete"
      ? ` ${snapshot.status}: ${visible(snapshot.error ?? "")}`
      : "";
  return `  ${snapshot.stream.padEnd(8)} synced ${when(snapshot.syncedAt)}${state}; ${tables}`;
}

/** How far the location's stored days were proved again, and what was repaired lately (status,
 * the status page). */
export function auditProgressText(proof: AuditProgress): string | undefined {
  if (proof.windows === 0) return undefined;
  const since = proof.provedSince
    ? `every stored day proved since ${when(proof.provedSince)}`
    : "some stored days never proved (synced before proofs were kept)";
  const audited =
    proof.audited > 0
      ? ` (${number.format(proof.audited)} of ${number.format(proof.windows)} by the audit)`
      : "";
  const failed = proof.failedRepairs > 0 ? `, ${proof.failedRepairs} of them not yet` : "";
  const repairs = `${proof.repairs} ${plural("day", proof.repairs)} repaired in the last 30 days${failed}`;
  return `${since}${audited}; ${repairs}`;
}

/** Which worker syncs the location now, and which did last (several workers, PostgreSQL). */
function turnLine(location: LocationStatus): string | undefined {
  const { turn } = location;
  if (!turn) return undefined;
  const now = turn.heldBy
    ? `synced now by ${visible(turn.heldBy)} since ${when(turn.heldSince)}`
    : "no worker on it now";
  const last = turn.lastDoneBy
    ? `; last done by ${visible(turn.lastDoneBy)} at ${when(turn.lastDoneAt)}`
    : "";
  return `  worker   ${now}${last}`;
}

/** The last morning report sent, the outbox, the messages that ended unsent lately and the open
 * alerts; nothing when there are none. */
export function messageLines(messages: DeliveryState): string[] {
  const lines: string[] = [];
  const { lastReport, waiting, firstWaiting, failed, retired, lastUndelivered, openAlerts } =
    messages;
  if (lastReport) {
    lines.push(
      `Morning report  ${visible(shownMessageKey("morning report", lastReport.key))} sent ${when(lastReport.sentAt)} UTC to ${lastReport.recipients.map(visible).join(", ")}`,
    );
  }
  if (waiting > 0) {
    lines.push(`Outbox  ${waiting} ${plural("message", waiting)} waiting`);
    for (const message of firstWaiting) {
      lines.push(
        `  ${message.kind} ${visible(shownMessageKey(message.kind, message.key))} by ${message.channel} to ${visible(message.recipient)}: ${message.attempts} ${plural("attempt", message.attempts)}, next ${when(message.nextAttemptAt)} UTC${message.lastError ? `; ${visible(message.lastError)}` : ""}`,
      );
    }
  }
  if (failed + retired > 0) {
    // Apart from the outbox: nothing tries these again, so only the user can act on them.
    const counts = [
      ...(failed > 0 ? [`${failed} refused for good`] : []),
      ...(retired > 0 ? [`${retired} retired`] : []),
    ];
    const total = failed + retired;
    lines.push(
      `Not delivered  ${total} ${plural("message", total)} in the last ${UNDELIVERED_DAYS} days, not tried again: ${counts.join(", ")}`,
    );
    for (const message of lastUndelivered) {
      const ended =
        message.status === "failed"
          ? `failed ${when(message.endedAt)} UTC after ${message.attempts} ${plural("attempt", message.attempts)}`
          : `retired ${when(message.endedAt)} UTC`;
      lines.push(
        `  ${message.kind} ${visible(shownMessageKey(message.kind, message.key))} by ${message.channel} to ${visible(message.recipient)}: ${ended}${message.reason ? `; ${visible(message.reason)}` : ""}`,
      );
    }
  }
  for (const alert of openAlerts) {
    lines.push(`Alert  ${alert.kind} since ${when(alert.openedAt)} UTC: ${visible(alert.detail)}`);
  }
  return lines;
}

export function formatStatus(report: StatusReport, options: FormatStatusOptions = {}): string {
  const style: CalendarStyle = options.color === true ? "color" : "plain";
  const lines = [`Database ${report.database}`, runLine(report.lastRun)];
  for (const location of report.locations) {
    lines.push(
      "",
      `${locationName(location)}  ${visible(location.id)}${location.key ? `  ${location.key}` : ""}`,
    );
    for (const stream of location.streams) lines.push(...streamLines(stream, style));
    for (const snapshot of location.snapshots) lines.push(snapshotLine(snapshot));
    const history = auditProgressText(location.history);
    if (history) lines.push(`  history  ${history}`);
    const turn = turnLine(location);
    if (turn) lines.push(turn);
  }
  const anyCalendar = report.locations.some((location) =>
    location.streams.some((stream) => stream.firstDay !== null && stream.calendar.length > 0),
  );
  if (anyCalendar) lines.push("", calendarLegend(style));
  const messages = messageLines(report.messages);
  if (messages.length > 0) lines.push("", ...messages);
  return `${lines.join("\n")}\n`;
}
