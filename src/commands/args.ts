/** Parsing and checking command-line values: each failure is a UsageError naming the flag. */

import { isCalendarDay } from "../clock/days.js";
import { wholeNumberWithin } from "../config/config.js";
import { UsageError } from "../errors.js";

export function integerFlag(
  value: string | undefined,
  flag: string,
  range: { min?: number; max?: number } = {},
): number | undefined {
  if (value === undefined) return undefined;
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = range;
  const number = wholeNumberWithin(value.trim(), { min, max });
  if (number === undefined) {
    throw new UsageError(
      `--${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
    );
  }
  return number;
}

export function fractionFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d*\.?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(number >= 0 && number <= 1)) {
    throw new UsageError(`--${flag} must be a number from 0 to 1, got ${JSON.stringify(value)}`);
  }
  return number;
}

/** A plain decimal number within [min, max] ("0.5", "2", "10"). */
export function decimalFlag(
  value: string | undefined,
  flag: string,
  range: { min: number; max: number },
): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d*\.?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(number >= range.min && number <= range.max)) {
    throw new UsageError(
      `--${flag} must be a number from ${range.min} to ${range.max}, got ${JSON.stringify(value)}`,
    );
  }
  return number;
}

export function dayFlag(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isCalendarDay(value)) {
    throw new UsageError(
      `--${flag} must be a calendar date YYYY-MM-DD, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

export function choiceFlag<T extends string>(
  value: string | undefined,
  flag: string,
  choices: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(
      `--${flag} must be one of ${choices.join(", ")}, got ${JSON.stringify(value)}`,
    );
  }
  return value as T;
}

/** "50-200" → [50, 200]. */
export function rangeFlag(value: string | undefined, flag: string): [number, number] | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)-(\d+)$/.exec(value.trim());
  const min = Number(match?.[1]);
  const max = Number(match?.[2]);
  if (!match || min > max)
    throw new UsageError(
      `--${flag} must look like MIN-MAX (e.g. 50-200), got ${JSON.stringify(value)}`,
    );
  return [min, max];
}
