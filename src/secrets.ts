/** Keeping API keys out of every message: a short fingerprint to name a key, and scrubbing. */
import { createHash } from "node:crypto";

/** "key#1a2b3c4d": enough to tell keys apart in logs and status, useless to an attacker. */
export function keyFingerprint(apiKey: string): string {
  return `key#${createHash("sha256").update(apiKey).digest("hex").slice(0, 8)}`;
}

/** Replaces every occurrence of each secret in a text. Short strings are left alone: a
 * one-character "secret" would shred any message. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) {
    if (secret.length >= 6) scrubbed = scrubbed.replaceAll(secret, "[redacted]");
  }
  return scrubbed;
}
