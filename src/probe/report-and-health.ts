/**
 * The two single-object operations the spec does not place: a report by id (asked for a report
 * the list just served) and health (found with the key, then asked once without it, to tell
 * whether it needs the key).
 */
import { healthSchema, reportSchema } from "../api/schemas.js";
import { addSample, isJsonObject, lastEvidence, type ProbeContext } from "./context.js";
import { findPath } from "./find-path.js";
import type { ProbeAnswer } from "./probe-http.js";

export async function probeReportPath(context: ProbeContext): Promise<void> {
  const id = context.reportId;
  if (id === undefined) {
    const missing =
      "not determined: the reports list served no report to ask for; set POS_PATH_REPORT by hand if the default is wrong";
    context.foundPaths.report = { missing };
    context.findings.push({
      topic: "report-path",
      title: "Report by id",
      answer: "not determined",
      certainty: "unknown",
      evidence: [],
      problem: missing,
    });
    return;
  }
  const accepts = (answer: ProbeAnswer) =>
    answer.status === 200 && isJsonObject(answer.json) && answer.json.id === id
      ? ("observed" as const)
      : undefined;
  const found = await findPath(context, {
    operation: "report",
    topic: "report-path",
    title: "Report by id",
    accepts,
    authorization: context.authorization,
    id,
  });
  if (found) addSample(context, "report", reportSchema, [found.answer.json]);
}

const looksLikeHealth = (answer: ProbeAnswer) =>
  answer.status === 200 && isJsonObject(answer.json) && typeof answer.json.status === "string";

const isHealth = (answer: ProbeAnswer) =>
  looksLikeHealth(answer) ? ("observed" as const) : undefined;

export async function probeHealth(context: ProbeContext): Promise<void> {
  const found = await findPath(context, {
    operation: "health",
    topic: "health-path",
    title: "Health",
    accepts: isHealth,
    authorization: context.authorization,
  });
  if (!found) return;
  addSample(context, "health answer", healthSchema, [found.answer.json]);
  const bare = await context.http.get("health without a key", found.path, "");
  const evidence = [lastEvidence(context)];
  const open = looksLikeHealth(bare);
  const refused = bare.status === 401 || bare.status === 403;
  context.findings.push({
    topic: "health-key",
    title: "Does health need the key?",
    answer: open
      ? "no: it answers without one"
      : refused
        ? "yes: it refuses a request without one"
        : `not determined (${bare.status} without a key)`,
    certainty: open || refused ? "observed" : "unknown",
    evidence,
    sync: "the sync never calls health; pos-sync probe sends the key when it is needed",
  });
}
