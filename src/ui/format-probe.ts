/** `pos-sync probe` as text: what was found and how surely, the spec's contradictions, and the
 * settings to use. */

import { durationText } from "../clock/durations.js";
import { plural } from "../plural.js";
import type { Finding, ProbeFindings, SettingFinding } from "../probe/findings.js";
import type { Contradiction } from "../probe/spec-conformance.js";
import { visible } from "../terminal-text.js";
import { formatTable } from "./text-table.js";

/** Answers, evidence and advice quote the server (its messages, headers, paths): each made
 * visible, the probe being pointed at servers nobody vouches for yet. */
function findingLines(finding: Finding, titleWidth: number): string[] {
  const lines = [
    `  ${finding.title.padEnd(titleWidth)}  ${visible(finding.answer)}  [${finding.certainty}]`,
  ];
  for (const line of finding.evidence) lines.push(`      ${visible(line)}`);
  if (finding.problem) lines.push(`    ! ${visible(finding.problem)}`);
  else if (finding.sync) lines.push(`    → ${visible(finding.sync)}`);
  return lines;
}

const KIND_WORDS: Record<Contradiction["kind"], string> = {
  missing: "required field missing",
  type: "type differs",
  value: "value outside the spec",
  "unknown-field": "field not in the spec",
};

/** What the sync does with records that depart so: only unknown fields leave a record whole. */
function syncTreatment(contradictions: ProbeFindings["contradictions"]): string {
  const archived = "keeps unknown fields in the raw archive";
  if (contradictions.every((c) => c.kind === "unknown-field"))
    return `the sync stores such records as usual and ${archived}`;
  return `the sync sets records with a missing, mistyped or out-of-range field aside in rejected_records and ${archived}`;
}

function contradictionLines(report: ProbeFindings): string[] {
  const sampled = Object.entries(report.sample)
    .map(([resource, count]) => `${count} ${plural(resource, count)}`)
    .join(", ");
  const lines = [`Where records depart from the spec (sampled: ${sampled || "nothing"})`];
  if (report.contradictions.length === 0) {
    lines.push(
      sampled === "" ? "  nothing was sampled" : "  none: every sampled record matches the spec",
    );
    return lines;
  }
  const rows = report.contradictions.map((c) => [
    `  ${c.resource}`,
    c.field,
    KIND_WORDS[c.kind],
    c.detail,
    `${c.records} of ${report.sample[c.resource] ?? "?"}${c.example ? ` (e.g. ${c.example})` : ""}`,
  ]);
  lines.push(...formatTable(rows, "left"));
  lines.push(`  → ${syncTreatment(report.contradictions)}`);
  return lines;
}

/** A shell assignment: quoted when the value holds anything but plain path characters. */
export function shellAssignment(name: string, value: string): string {
  return /^[\w/.-]*$/.test(value)
    ? `${name}=${value}`
    : `${name}='${value.replaceAll("'", "'\\''")}'`;
}

function settingLine(setting: SettingFinding): string {
  if (setting.value === null) return `# ${setting.name}: ${setting.missing ?? "not determined"}`;
  const assignment = shellAssignment(setting.name, setting.value);
  const now =
    setting.value === setting.current
      ? "as in effect now"
      : `in effect now: ${setting.current === "" ? "(empty)" : setting.current}`;
  const note = setting.certainty === "inferred" ? `inferred, check it; ${now}` : now;
  return `${assignment}    # ${note}`;
}

export function formatProbe(report: ProbeFindings): string {
  const { requests } = report;
  const lines = [
    `Probed ${report.apiUrl} with ${report.key}: ${requests.sent} ${plural("request", requests.sent)} of a budget of ${requests.budget}, ${durationText(requests.elapsedMs, "tenths")}`,
  ];
  if (report.stopped) lines.push(`! stopped early: ${visible(report.stopped.message)}`);
  lines.push("", "What the spec leaves unshown");
  const width = Math.max(...report.findings.map((f) => f.title.length));
  for (const finding of report.findings) lines.push(...findingLines(finding, width));
  lines.push("", ...contradictionLines(report));
  if (report.otherKeys.length > 0) {
    lines.push("", "Other keys");
    for (const other of report.otherKeys) {
      const verdict =
        other.accepted === null
          ? other.status === undefined
            ? "not checked"
            : `not told (${other.status})`
          : other.accepted
            ? "accepted"
            : `refused (${other.status})`;
      lines.push(
        `  ${other.key}  ${verdict}${other.location ? ` (${visible(other.location)})` : ""}`,
      );
    }
  }
  lines.push("", "Settings to use (or pos-sync probe --write-config FILE)");
  for (const setting of report.settings) lines.push(`  ${settingLine(setting)}`);
  return `${lines.join("\n")}\n`;
}
