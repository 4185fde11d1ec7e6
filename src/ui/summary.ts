/** The one-screen summary that ends a run. */

import { durationBetween } from "../clock/durations.js";
import type { RunResult } from "../sync/run-result.js";
import type { LocationStats, StreamStats } from "../sync/stats.js";
import { visible } from "../terminal-text.js";
import { STREAMS } from "../vocabulary.js";
import { number } from "./text.js";
import { formatTable } from "./text-table.js";

const PROBLEM_LINES = 6;

function streamRow(name: string, stats: StreamStats): string[] {
  const { windows } = stats;
  const done = `${windows.complete}/${windows.planned || windows.complete + windows.failed}`;
  return [
    name,
    done,
    ...[
      stats.fetched,
      stats.inserted,
      stats.updated,
      stats.unchanged,
      stats.rejected,
      stats.deleted,
    ].map((n) => number.format(n)),
  ];
}

function problems(name: string, stats: StreamStats): string[] {
  return [
    ...stats.unavailable.map(
      (resource) =>
        `${name}: ${resource} is not served at the configured path (skipped; pos-sync probe finds it)`,
    ),
    ...stats.errors.map((error) => `${name}: ${error}`),
    ...stats.problems.map((p) => `${name} ${p.day}: ${p.error}`),
  ];
}

/** Name, configured label, id and key fingerprint of a location, as far as they are known. */
function locationHeading(location: LocationStats): string {
  const name = location.name ?? location.label ?? "(location not read)";
  const label = location.label && location.label !== name ? ` "${location.label}"` : "";
  const heading = `${name}${label}  ${location.locationId ?? ""}  ${location.key}`;
  return visible(heading).replace(/ +$/, "");
}

/** Problems a stream had, those beyond the ones it kept included. */
function problemCount(stats: StreamStats): number {
  return stats.unavailable.length + stats.errors.length + stats.problemCount;
}

/** The summary of a run, headed by the command that made it. */
export function formatSummary(result: RunResult, command = "sync"): string {
  const lines = [
    `pos-sync ${command}: ${result.status} in ${durationBetween(result.startedAt, result.finishedAt, "tenths")} ` +
      `(run #${result.runId}, ${number.format(result.requests)} requests, ${result.retries} retried, ` +
      `${result.rateLimited} rate-limited)`,
    ...result.notices.map((notice) => `  ${visible(notice)}`),
  ];
  for (const location of result.stats.locations) {
    lines.push("", locationHeading(location));
    const rows = [
      ["  stream", "windows", "fetched", "inserted", "updated", "unchanged", "rejected", "deleted"],
    ];
    const notes: string[] = [];
    let total = 0;
    for (const stream of STREAMS) {
      const stats = location.streams[stream];
      if (!stats) continue;
      rows.push(streamRow(`  ${stream}`, stats));
      notes.push(...problems(stream, stats));
      total += problemCount(stats);
    }
    if (rows.length > 1) lines.push(...formatTable(rows));
    if (location.error) {
      notes.unshift(location.error);
      total++;
    }
    notes.unshift(...location.warnings);
    total += location.warnings.length;
    const shown = notes.slice(0, PROBLEM_LINES);
    // A note quotes the API (its error messages, record ids, reasons).
    for (const note of shown) lines.push(`  ! ${visible(note)}`);
    if (total > shown.length)
      lines.push(`  ! … and ${total - shown.length} more (see pos-sync status)`);
  }
  if (result.error && !result.stats.locations.some((l) => l.error === result.error))
    lines.push("", `error: ${visible(result.error)}`);
  if (result.status === "partial" || result.status === "failed") {
    lines.push(
      "",
      "Windows that did not complete are read again by the next run; `pos-sync status` lists them.",
    );
  }
  if (result.status === "interrupted")
    lines.push("", "Interrupted: the next run resumes where this one stopped.");
  return `${lines.join("\n")}\n`;
}
