/**
 * Identifiers of generated orders and reports. They look like version-4 UUIDs but encode where
 * the record lives (location, session day, sequence), so that "get by id" can regenerate the
 * record without an index of every id ever served. A seed-dependent checksum fills the other
 * digits: an id made up by hand, or by another seed, decodes to nothing.
 */
import { hashString } from "./random.js";

export type RecordKind = "order" | "report";

const KIND_DIGIT: Record<RecordKind, string> = { order: "1", report: "2" };
const VARIANT_DIGITS = ["8", "9", "a", "b"];

export interface RecordAddress {
  kind: RecordKind;
  locationIndex: number;
  /** Days since 1970-01-01 of the session the record belongs to. */
  sessionEpochDay: number;
  sequence: number;
}

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, "0").slice(-digits);
}

function checksum(seed: number, address: RecordAddress): string {
  const label = `${seed}|${address.kind}|${address.locationIndex}|${address.sessionEpochDay}|${address.sequence}`;
  return (
    hex(hashString(`${label}|a`), 8) +
    hex(hashString(`${label}|b`), 8) +
    hex(hashString(`${label}|c`), 8)
  );
}

export function encodeRecordId(seed: number, address: RecordAddress): string {
  const sum = checksum(seed, address);
  const variant = VARIANT_DIGITS[Number.parseInt(sum.charAt(8), 16) & 3];
  return [
    sum.slice(0, 8),
    hex(address.locationIndex, 4),
    `4${KIND_DIGIT[address.kind]}${sum.slice(9, 11)}`,
    `${variant}${hex(address.sessionEpochDay, 5).slice(0, 3)}`,
    `${hex(address.sessionEpochDay, 5).slice(3)}${hex(address.sequence, 4)}${sum.slice(11, 17)}`,
  ].join("-");
}

const ID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[12][0-9a-f]{2}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The address a generated id encodes, or undefined when the id was not made by this seed. */
export function decodeRecordId(seed: number, id: string): RecordAddress | undefined {
  const text = id.toLowerCase();
  if (!ID_SHAPE.test(text)) return undefined;
  const digits = text.replaceAll("-", "");
  const kind: RecordKind = digits.charAt(13) === "1" ? "order" : "report";
  const address: RecordAddress = {
    kind,
    locationIndex: Number.parseInt(digits.slice(8, 12), 16),
    sessionEpochDay: Number.parseInt(digits.slice(17, 22), 16),
    sequence: Number.parseInt(digits.slice(22, 26), 16),
  };
  return encodeRecordId(seed, address) === text ? address : undefined;
}
