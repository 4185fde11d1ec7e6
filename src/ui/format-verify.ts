/** `pos-sync verify` as text: the days whose counts differ, and the reports that do not add up. */
import type { ReconciliationProblem, VerifyResult } from "../read-models/verify.js";
import { visible } from "./terminal-text.js";

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
    lines.push(`  ${location.checks} day counts checked, ${location.since} to ${location.until}`);
    for (const m of location.mismatches.slice(0, 20)) {
      lines.push(
        `  ! ${m.stream} ${m.day}: the API counts ${m.apiCount}, stored ${m.stored} (+${m.rejected} rejected)`,
      );
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
