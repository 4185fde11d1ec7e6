/** Money is generated in integer cents so that every sum adds up exactly, and is shown to the
 * API's clients as a decimal number of currency units. */

export function toUnits(cents: number): number {
  return Math.round(cents) / 100;
}

export function toCents(units: number): number {
  return Math.round(units * 100);
}

/** The tax part of a tax-included amount, in cents. `rateBp` is in hundredths of a percent. */
export function includedTaxCents(grossCents: number, rateBp: number): number {
  return Math.round((grossCents * rateBp) / (10_000 + rateBp));
}

export function sumCents(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += toCents(value);
  return total;
}
