/**
 * Where a redirect points, fit to show the user: the full address (a relative Location is
 * resolved against the request), without the credentials a server may have put in it.
 */
import { scrubSecrets } from "../secrets.js";

const LONGEST_SHOWN = 300;
/** Query parameters whose values are credentials by their names (signed URLs, tokens). */
const SECRET_PARAMETER = /key|token|secret|sig|auth|pass|session|code/i;

export function shownRedirectTarget(
  location: string | undefined,
  requestUrl: string,
  secrets: readonly string[],
): string | undefined {
  if (location === undefined || location.trim() === "") return undefined;
  let url: URL;
  try {
    url = new URL(location.trim(), requestUrl);
  } catch {
    return scrubSecrets(location, secrets).slice(0, LONGEST_SHOWN);
  }
  url.username = "";
  url.password = "";
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAMETER.test(name)) url.searchParams.set(name, "redacted");
  }
  return scrubSecrets(url.href, secrets).slice(0, LONGEST_SHOWN);
}
