/**
 * Finding an operation the spec does not place: each candidate path in turn until one answers
 * what the operation returns. Only a 404 (or 410) on every candidate is "not found"; any other
 * answer (a 403 for every unknown route, a 5xx) leaves the path undetermined. Never a guess.
 */
import { type ApiPaths, PATH_SETTINGS, withId } from "../api/paths.js";
import { candidatesFor } from "./candidates.js";
import { lastEvidence, type PathOutcome, type ProbeContext } from "./context.js";
import type { Certainty, Topic } from "./findings.js";
import type { ProbeAnswer } from "./probe-http.js";

export interface PathSearch {
  operation: keyof ApiPaths;
  topic: Topic;
  title: string;
  /** How surely an answer is this operation's: undefined when it is not. */
  accepts: (answer: ProbeAnswer) => Exclude<Certainty, "unknown"> | undefined;
  /** Sent with every candidate: the working header, or "" for none. */
  authorization: string;
  /** For a template with {id}. */
  id?: string;
}

export interface PathFound {
  path: string;
  answer: ProbeAnswer;
}

/** Statuses that say "nothing here". */
const ABSENT = new Set([404, 410]);

function missedOutcome(
  setting: string,
  statuses: number[],
  candidates: number,
): { outcome: PathOutcome; problem: string; notFound: boolean } {
  const others = [...new Set(statuses.filter((s) => !ABSENT.has(s)))];
  if (others.length === 0) {
    const missing = `not found; set ${setting} by hand`;
    return {
      outcome: { missing },
      problem: `${missing} (none of the ${candidates} candidates answered it)`,
      notFound: true,
    };
  }
  const missing = `not determined: candidates answered ${others.join(", ")}; set ${setting} by hand if the default is wrong`;
  return { outcome: { missing }, problem: missing, notFound: false };
}

/** Tries the candidates; records a finding; returns the path found, or undefined. */
export async function findPath(
  context: ProbeContext,
  search: PathSearch,
): Promise<PathFound | undefined> {
  const evidence: string[] = [];
  const statuses: number[] = [];
  const setting = PATH_SETTINGS[search.operation];
  const candidates = candidatesFor(search.operation, context.pathsInEffect[search.operation]);
  for (const template of candidates) {
    const path = search.id === undefined ? template : withId(template, search.id);
    const answer = await context.http.get(
      `${search.title}: ${template}`,
      path,
      search.authorization,
    );
    evidence.push(lastEvidence(context));
    statuses.push(answer.status);
    const certainty = search.accepts(answer);
    if (certainty !== undefined) {
      context.foundPaths[search.operation] = { path: template, certainty };
      context.findings.push({
        topic: search.topic,
        title: search.title,
        answer: template,
        certainty,
        evidence,
      });
      return { path, answer };
    }
  }
  const { outcome, problem, notFound } = missedOutcome(setting, statuses, candidates.length);
  context.foundPaths[search.operation] = outcome;
  context.findings.push({
    topic: search.topic,
    title: search.title,
    answer: notFound ? "not found" : "not determined",
    certainty: notFound ? "observed" : "unknown",
    evidence,
    problem,
  });
  return undefined;
}
