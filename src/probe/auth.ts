/**
 * The format of the authorization header: the bare key, or the key behind a scheme. Tried on
 * the location operation (the one every key may read), the scheme in effect first, then the
 * bare key, Bearer and Token; the first scheme a refusal's challenge names goes next in line.
 */
import { askedAuthScheme } from "../api/auth-challenge.js";
import { SHOWN_PATHS } from "../api/paths.js";
import { locationSchema } from "../api/schemas.js";
import { CANDIDATE_SCHEMES } from "./candidates.js";
import { addSample, isJsonObject, lastEvidence, type ProbeContext } from "./context.js";
import { ProbeStop } from "./probe-http.js";

export function authorizationFor(scheme: string, apiKey: string): string {
  return scheme === "" ? apiKey : `${scheme} ${apiKey}`;
}

function schemeLabel(scheme: string): string {
  return scheme === "" ? "the bare key" : `${scheme} <key>`;
}

/** Finds the header format the server accepts; sets `context.authorization`, or stops. */
export async function findAuthScheme(context: ProbeContext, inEffect: string): Promise<string> {
  const queue = [...new Set([inEffect, ...CANDIDATE_SCHEMES])];
  const tried: string[] = [];
  const evidence: string[] = [];
  // One scheme from a challenge at most: a server naming a new one on every 401 cannot spend
  // the budget.
  let challengeFollowed = false;
  for (let scheme = queue.shift(); scheme !== undefined; scheme = queue.shift()) {
    tried.push(scheme);
    const authorization = authorizationFor(scheme, context.apiKey);
    const answer = await context.http.get(
      `authorization: ${schemeLabel(scheme)}`,
      SHOWN_PATHS.location,
      authorization,
      { query: { devices: true }, keyForm: schemeLabel(scheme) },
    );
    evidence.push(lastEvidence(context));
    if (answer.status === 200 && isJsonObject(answer.json)) {
      context.authorization = authorization;
      addSample(context, "location", locationSchema, [answer.json]);
      context.findings.push({
        topic: "auth",
        title: "Authorization header",
        answer:
          scheme === "" ? "the bare key (authorization: <key>)" : `authorization: ${scheme} <key>`,
        certainty: "observed",
        evidence,
      });
      return scheme;
    }
    if (answer.status === 401 || answer.status === 403) {
      const asked = askedAuthScheme(answer.headers["www-authenticate"], scheme);
      if (
        asked !== undefined &&
        !challengeFollowed &&
        !tried.includes(asked) &&
        !queue.includes(asked)
      ) {
        challengeFollowed = true;
        queue.unshift(asked);
      }
      continue;
    }
    context.findings.push({
      topic: "auth",
      title: "Authorization header",
      answer: "not determined",
      certainty: "unknown",
      evidence,
    });
    if (answer.status >= 300 && answer.status < 400) {
      throw new ProbeStop(
        "base-url",
        `${lastEvidence(context)}: point POS_API_URL at the address it redirects to (pos-sync never follows a redirect with the key)`,
      );
    }
    if (answer.status === 404) {
      throw new ProbeStop(
        "base-url",
        `GET ${SHOWN_PATHS.location} answered 404: check POS_API_URL (the spec's /v1/… paths must be under it)`,
      );
    }
    throw new ProbeStop(
      "server-error",
      `GET ${SHOWN_PATHS.location} answered ${answer.status}: the probe needs the location operation to work`,
    );
  }
  context.findings.push({
    topic: "auth",
    title: "Authorization header",
    answer: "the key was refused in every form tried",
    certainty: "observed",
    evidence,
    problem: `check the key with your POS provider: ${tried.map(schemeLabel).join(", ")} were all refused`,
  });
  throw new ProbeStop("key-rejected", "the API key was refused in every header format tried");
}
