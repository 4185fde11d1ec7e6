/**
 * What a 401 or 403's WWW-Authenticate challenge says about POS_AUTH_SCHEME: a server that asks
 * for "Bearer" rejects a bare key that may well be right.
 */

/** Schemes whose credentials are not one token: POS_AUTH_SCHEME cannot produce them. */
const NOT_TOKEN_SCHEMES = new Set(["basic", "digest", "negotiate", "ntlm"]);

/** The scheme to suggest, or undefined when the challenge asks for the one sent, for none, or for
 * one pos-sync cannot send. */
export function askedAuthScheme(
  challenge: string | string[] | undefined,
  sentScheme: string,
): string | undefined {
  const challenges = Array.isArray(challenge) ? challenge : [challenge ?? ""];
  const schemes = challenges.flatMap((text) => {
    const scheme = /^\s*([A-Za-z][\w.-]*)/.exec(text)?.[1];
    return scheme === undefined ? [] : [scheme];
  });
  if (schemes.some((scheme) => scheme.toLowerCase() === sentScheme.toLowerCase())) return undefined;
  return schemes.find((scheme) => !NOT_TOKEN_SCHEMES.has(scheme.toLowerCase()));
}
