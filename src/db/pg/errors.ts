/** PostgreSQL failures in words a user can act on, naming the server without its password. */
import { describePostgresUrl, type PostgresTarget } from "../../config/config.js";
import { DatabaseError } from "../errors.js";

/** SQLSTATE classes and codes (https://www.postgresql.org/docs/current/errcodes-appendix.html)
 * and socket errors, as a user would fix them. */
const PROBLEMS: Readonly<Record<string, string>> = {
  ECONNREFUSED: "nothing listens at that address (is the server running?)",
  ENOTFOUND: "the host name does not resolve",
  ETIMEDOUT: "the server does not answer",
  ECONNRESET: "the server closed the connection",
  "28P01": "the password was refused",
  "28000": "the server refused this user",
  "3D000": "the database does not exist (create it first)",
  "3F000": "the schema does not exist",
  "42501": "this user lacks a privilege it needs (CREATE on the database, or on the schema)",
  "53100": "the server's disk is full",
  "53300": "the server has too many connections",
  "57P01": "the server is shutting down",
  "57P03": "the server is starting up or shutting down",
};

/** Codes after which the same work may succeed later: the server was away, or busy. */
const RETRYABLE = new Set(["ECONNREFUSED", "ETIMEDOUT", "ECONNRESET", "53300", "57P01", "57P03"]);

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "UNKNOWN";
}

/** SQLSTATE classes of a failing server or connection, as opposed to one record's data (22,
 * 23) or a statement of ours (42): the connection (08), privileges (28), the database named (3D),
 * resources (53), the operator (57), the system (58), internal (XX). */
const STORAGE_CLASSES = new Set(["08", "28", "3D", "53", "57", "58", "XX"]);

/** A failure of the destination itself (server gone, disk full, access refused), which stops a
 * run; a record the server refuses is a problem with that record's data instead. */
export function isPostgresStorageFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (/^E[A-Z]+$/.test(code)) return true; // a socket error: ECONNRESET, ECONNREFUSED…
  if (/^[0-9A-Z]{5}$/.test(code)) return STORAGE_CLASSES.has(code.slice(0, 2)) || code === "42501";
  // The driver's own errors carry no code: a connection that ended, a timeout while connecting.
  return (
    error instanceof Error &&
    /Connection terminated|timeout exceeded when trying to connect/i.test(error.message)
  );
}

export function postgresError(
  error: unknown,
  target: PostgresTarget,
  doing: string,
): DatabaseError {
  if (error instanceof DatabaseError) return error;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  // The driver's own messages never carry the password; the address is named without it.
  const problem = PROBLEMS[code] ?? message.replaceAll(target.url, describePostgresUrl(target.url));
  return new DatabaseError(
    `cannot ${doing} the PostgreSQL database ${describePostgresUrl(target.url)}: ${problem} (${code})`,
    code,
    RETRYABLE.has(code),
  );
}
