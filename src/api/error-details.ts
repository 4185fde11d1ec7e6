/**
 * What an exchange says, fit to show: the server's message from an error body, a network error's
 * code, a header's value. Shared by the client's transport and the probe.
 */
import { scrubSecrets } from "../secrets.js";

/**
 * The message of an error body: its `message` (or `error`) field, else its text, shortened.
 * Secrets are scrubbed from the whole text before it is cut: cut first, a secret straddling the
 * cut would keep its start.
 */
export function serverMessage(body: string, secrets: readonly string[], maxLength: number): string {
  let text = body.replace(/\s+/g, " ").trim();
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    const message = parsed.message ?? parsed.error;
    if (typeof message === "string") text = message;
  } catch {
    // not JSON: the raw text it is
  }
  return scrubSecrets(text, secrets).slice(0, maxLength);
}

/** A network failure's code ("ECONNREFUSED"), without anything else a library attached. */
export function errorCode(error: unknown): string {
  if (error && typeof error === "object") {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === "string") return code;
    if (name === "AbortError") return "ABORT_ERR";
  }
  return "UNKNOWN";
}

/** A header's value as node gives it, repeated headers as an array: the first. */
export function firstHeaderValue(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}
