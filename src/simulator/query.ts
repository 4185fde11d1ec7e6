/** Query parameters of the list operations, validated with the spec's rules (4.2, 8). */
import { matchesApiDayPattern } from "../clock/days.js";
import type { OversizePageBehaviour } from "./faults.js";

export const MAX_PAGE_SIZE = 100;
/** The most a server that accepts size above 100 serves, all the same. */
const MAX_ACCEPTED_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 10;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WHOLE_NUMBER = /^\d{1,15}$/;

export interface ListParameters {
  index: number;
  size: number;
  since?: string;
  until?: string;
  reportId?: string;
}

export class InvalidParameter extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

/** The single value of a parameter; repeating one is ambiguous, so it is refused. */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new InvalidParameter(name, `${name} must be given at most once`);
  return values[0];
}

function wholeNumber(params: URLSearchParams, name: string, min: number, fallback: number): number {
  const text = single(params, name);
  if (text === undefined) return fallback;
  const value = WHOLE_NUMBER.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new InvalidParameter(
      name,
      `${name} must be an integer >= ${min}, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}

function day(params: URLSearchParams, name: string): string | undefined {
  const text = single(params, name);
  if (text === undefined || matchesApiDayPattern(text)) return text;
  throw new InvalidParameter(
    name,
    `${name} must be a date YYYY-MM-DD, got ${JSON.stringify(text)}`,
  );
}

/** Parses index, size, since, until and, for orders, reportId; throws InvalidParameter. */
export function parseListParameters(
  params: URLSearchParams,
  acceptsReportId: boolean,
  oversize: OversizePageBehaviour = "cap",
): ListParameters {
  const index = wholeNumber(params, "index", 0, 0);
  const askedSize = wholeNumber(params, "size", 1, DEFAULT_PAGE_SIZE);
  if (askedSize > MAX_PAGE_SIZE && oversize === "refuse") {
    throw new InvalidParameter(
      "size",
      `size must be from 1 to ${MAX_PAGE_SIZE}, got ${JSON.stringify(String(askedSize))}`,
    );
  }
  const size = Math.min(askedSize, oversize === "accept" ? MAX_ACCEPTED_SIZE : MAX_PAGE_SIZE);
  const parsed: ListParameters = { index, size };
  const since = day(params, "since");
  const until = day(params, "until");
  if (since !== undefined) parsed.since = since;
  if (until !== undefined) parsed.until = until;
  if (acceptsReportId) {
    const reportId = single(params, "reportId");
    if (reportId !== undefined) {
      if (!UUID_PATTERN.test(reportId)) {
        throw new InvalidParameter(
          "reportId",
          `reportId must be a uuid, got ${JSON.stringify(reportId)}`,
        );
      }
      parsed.reportId = reportId.toLowerCase();
    }
  }
  return parsed;
}

/** `devices` on the location operation: the only allowed value is true. */
export function parseDevicesParameter(params: URLSearchParams): boolean {
  const text = single(params, "devices");
  if (text === undefined) return false;
  if (text === "true") return true;
  throw new InvalidParameter(
    "devices",
    `devices only allows the value true, got ${JSON.stringify(text)}`,
  );
}

export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}
