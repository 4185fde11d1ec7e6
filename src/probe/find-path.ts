/**
 * Finding an operation the spec does not place: each candidate path in turn until one answers
 * what the operation returns. A 404 on every candidate is reported as not found, never guessed.
 */
import { type ApiPaths, PATH_SETTINGS, withId } from "../api/paths.js";
import { candidatesFor } from "./candidates.js";
import { lastEvidence, type ProbeContext } from "./context.js";
import type { ProbeAnswer } from "./probe-http.js";
import type { Finding, Topic } from "./report.js";

export interface PathSearch {
  operation: keyof ApiPaths;
  topic: Topic;
  title: string;
  /** Whether an answer is this operation's (a 200 with the right shape). */
  accepts: (answer: ProbeAnswer) => boolean;
  /** Sent with every candidate: the working header, or "" for none. */
  authorization: string;
  /** For a template with {id}. */
  id?: string;
}

export interface PathFound {
  path: string;
  answer: ProbeAnswer;
}

/** Tries the candidates; records a finding; returns the path found, or undefined. */
export async function findPath(
  context: ProbeContext,
  search: PathSearch,
): Promise<PathFound | undefined> {
  const evidence: string[] = [];
  const setting = PATH_SETTINGS[search.operation];
  for (const template of candidatesFor(search.operation, context.pathsInEffect[search.operation])) {
    const path = search.id === undefined ? template : withId(template, search.id);
    const answer = await context.http.get(
      `${search.title}: ${template}`,
      path,
      search.authorization,
    );
    evidence.push(lastEvidence(context));
    if (search.accepts(answer)) {
      context.foundPaths[search.operation] = template;
      context.findings.push({
        topic: search.topic,
        title: search.title,
        answer: template,
        certainty: "observed",
        evidence,
      });
      return { path, answer };
    }
  }
  context.foundPaths[search.operation] = null;
  const finding: Finding = {
    topic: search.topic,
    title: search.title,
    answer: "not found",
    certainty: "observed",
    evidence,
    problem: `not found; set ${setting} by hand (none of the ${evidence.length} candidates answered it)`,
  };
  context.findings.push(finding);
  return undefined;
}
