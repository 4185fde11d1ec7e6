/**
 * A webhook address's credentials (`https://user:password@host/…`), sent as curl sends them: HTTP
 * Basic authorization. undici does not send a URL's userinfo, so a receiver asking for a login got
 * none and answered 401 with nothing to tell why. Pure.
 */

export interface WebhookTarget {
  /** The address to request: the one given, without its userinfo. */
  url: string;
  /** `Basic …` when the address names a user or a password. A secret: never logged nor stored. */
  authorization?: string;
}

/** Percent-decoded, as curl reads userinfo (`p%40ss` is `p@ss`); a malformed escape is kept as
 * written. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Whether the address names a user or a password. */
export function hasCredentials(url: URL): boolean {
  return url.username !== "" || url.password !== "";
}

/** An address that does not parse is left for the request to refuse, with its own error. */
export function webhookTarget(address: string): WebhookTarget {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { url: address };
  }
  if (!hasCredentials(url)) return { url: address };
  const credentials = `${decoded(url.username)}:${decoded(url.password)}`;
  url.username = "";
  url.password = "";
  return {
    url: url.href,
    authorization: `Basic ${Buffer.from(credentials, "utf8").toString("base64")}`,
  };
}
