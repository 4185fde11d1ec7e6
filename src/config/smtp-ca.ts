/** POS_REPORT_SMTP_CA: the certificates to trust for the mail server, read once at start so that
 * a wrong path stops the command there (exit 2) rather than failing every message later. */
import { X509Certificate } from "node:crypto";
import { ConfigError } from "../errors.js";
import { readBounded } from "../read-bounded.js";
import { visible } from "../terminal-text.js";

/** Larger than any CA bundle (a system's whole is about 200 kB); a device never ends. */
const LARGEST_CA_FILE = 1024 * 1024;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

const EXPECTED =
  "expected a PEM file (-----BEGIN CERTIFICATE-----) of the mail server's own certificate or of the CA that signed it";

const UNREADABLE: Record<string, string> = {
  ENOENT: "names no file",
  EISDIR: "names a folder",
  EACCES: "names a file pos-sync may not read",
  EPERM: "names a file pos-sync may not read",
};

/**
 * The PEM certificates of the file at `path`, each checked to parse. `setting` names where the
 * path came from (POS_REPORT_SMTP_CA, or the config file's key). Throws a ConfigError in one line:
 * a missing or unreadable file, one too large, or one holding no certificate (a private key, DER).
 */
export function readSmtpCa(path: string, setting: string): string {
  const shown = JSON.stringify(visible(path));
  let bytes: Buffer;
  try {
    bytes = readBounded(path, LARGEST_CA_FILE);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    const why = UNREADABLE[code] ?? `cannot be read (${code})`;
    throw new ConfigError(`${setting} ${why}: ${shown}: ${EXPECTED}`);
  }
  if (bytes.length > LARGEST_CA_FILE) {
    throw new ConfigError(`${setting} names a file larger than 1 MB: ${shown}: ${EXPECTED}`);
  }
  const certificates = bytes.toString("utf8").match(PEM_CERTIFICATE) ?? [];
  if (certificates.length === 0) {
    throw new ConfigError(
      `${setting} names a file with no certificate in it: ${shown}: ${EXPECTED}`,
    );
  }
  for (const [index, pem] of certificates.entries()) {
    try {
      new X509Certificate(pem);
    } catch {
      throw new ConfigError(
        `${setting} names a file whose certificate ${index + 1} is damaged: ${shown}: ${EXPECTED}`,
      );
    }
  }
  return certificates.join("\n");
}
