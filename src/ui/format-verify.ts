/** `pos-sync verify` as text: the days whose counts differ, and the reports that do not add up. */
import {
  type DayCheck,
  type ReconciliationProblem,
  repairCount,
  type VerifyResult,
} from "../proof/verify.js";
import { formatRanges } from "../sync/plan.js";
import type { RunResult } from "../sync/run-result.js";
import { visible } from "../terminal-text.js";
import type { RepairDays } from "../vocabulary.js";
import { formatSummary } from "./summary.js";

/** What keeps a report from agreeing with its orders; rejected orders named apart, since they
 * are not lost but set aside. */
function reconciliationText(r: ReconciliationProblem): string {
  if (r.ordersMissing === 0) return `totals differ by ${r.difference}`;
  const rejected = `set aside in rejected_records (they break the spec)`;
  if (r.ordersRejected === r.ordersMissing)
    return `${r.ordersMissing} of its orders are not stored: ${rejected}`;
  const notStored = r.ordersMissing - r.ordersRejected;
  return r.ordersRejected === 0
    ? `${notStored} orders missing`
    : `${notStored} orders missing, and ${r.ordersRejected} more ${rejected}`;
}

/** The counts when they differ (always without a content check), then what the content check
 * found. */
function mismatchText(check: DayCheck): string {
  const { content } = check;
  const parts: string[] = [];
  if (!content || check.apiCount !== check.stored + check.rejected)
    parts.push(
      `the API counts ${check.apiCount}, stored ${check.stored} (+${check.rejected} rejected)`,
    );
  if (!content) return parts.join("");
  const found = [
    [content.missing, "listed and not stored"],
    [content.changed, "stored with other content"],
    [content.extra, "stored and no longer listed"],
  ] as const;
  for (const [n, what] of found) if (n > 0) parts.push(`${n} ${what}`);
  return parts.join("; ");
}

/** What `verify --repair` read again, what the run changed, and the check after it. */
export function formatRepair(days: RepairDays, run: RunResult, after: VerifyResult): string {
  const lines = [`Reading ${repairCount(days)} day-streams again:`];
  for (const [locationId, streams] of Object.entries(days))
    for (const [stream, list] of Object.entries(streams))
      lines.push(
        `  ${visible(locationId)} ${stream}: ${formatRanges((list ?? []).map((f) => f.day))}`,
      );
  return `${lines.join("\n")}\n\n${formatSummary(run, "verify --repair")}\nAfter the repair:\n${formatVerify(after)}`;
}

export function formatVerify(result: VerifyResult): string {
  const lines: string[] = [];
  for (const location of result.locations) {
    const name = location.name === null ? "(unknown location)" : visible(location.name);
    const head = `${name}  ${visible(location.locationId ?? "")}  ${location.key}`;
    lines.push(head);
    if (location.error) {
      lines.push(`  ! ${visible(location.error)}`);
      continue;
    }
    if (location.notice) lines.push(`  ${visible(location.notice)}`);
    lines.push(`  ${location.checks} day counts checked, ${location.since} to ${location.until}`);
    for (const m of location.mismatches.slice(0, 20)) {
      lines.push(`  ! ${m.stream} ${m.day}: ${mismatchText(m)}`);
    }
    if (location.mismatches.length > 20)
      lines.push(`  ! … and ${location.mismatches.length - 20} more days`);
    for (const r of location.reconciliation.slice(0, 20)) {
      const [mark, allowed] = r.allowed ? ["-", " (allowed: --allow-rejected)"] : ["!", ""];
      lines.push(
        `  ${mark} report #${r.reportNumber} (${r.businessDate}): ${reconciliationText(r)}${allowed}`,
      );
    }
    if (location.reconciliation.length > 20)
      lines.push(`  ! … and ${location.reconciliation.length - 20} more reports`);
    if (location.mismatches.length === 0 && location.reconciliation.length === 0) {
      lines.push("  every count matches the API; every report agrees with its orders");
    } else if (
      location.mismatches.length === 0 &&
      location.reconciliation.every((r) => r.allowed)
    ) {
      lines.push(
        "  every count matches the API; every report agrees with its stored and rejected orders",
      );
    }
  }
  lines.push("", `${result.ok ? "OK" : "MISMATCH"}: ${result.requests} requests`);
  return `${lines.join("\n")}\n`;
}
