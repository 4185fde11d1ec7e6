/**
 * The checks compiled from the response schemas (src/api/schema-check.ts) against zod itself: on
 * the simulator's records and on thousands of them mutated field by field, a check accepts
 * exactly what the schema accepts. A check that accepted more would store records zod refuses.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { schemaCheckOf } from "../src/api/schema-check.js";
import {
  categorySchema,
  locationSchema,
  modifierSchema,
  orderSchema,
  paymentMethodSchema,
  productSchema,
  reportSchema,
  taxSchema,
} from "../src/api/schemas.js";
import { validateRecord } from "../src/api/validate.js";
import { Dataset } from "../src/simulator/dataset.js";
import { Random } from "../src/simulator/random.js";

const dataset = new Dataset({
  seed: 5,
  locations: 1,
  days: 6,
  today: "2026-05-20",
  ordersPerDay: [20, 30],
});
const location = dataset.locations[0]!;
const sessions = [...dataset.sessionsOf(location)];
const orders = sessions.flatMap((session) => session.orders);
const reports = sessions.flatMap((session) => (session.report ? [session.report] : []));

/** Values a field is set to: right and wrong types, formats and ranges. */
const REPLACEMENTS: unknown[] = [
  null,
  "",
  "text",
  "0f8fad5b-d9cb-469f-a165-70867728950e",
  "0f8fad5b-d9cb-469f-a165-70867728950",
  "2026-05-18T10:00:00Z",
  "2026-05-18T10:00:00+02:00",
  "2026-05-18T10:00:00",
  "2026-05-18",
  "takeout",
  "https://example.com/docs",
  0,
  -1,
  1,
  2.5,
  -0.5,
  true,
  false,
  [],
  [{}],
  ["text"],
  {},
  { name: "x" },
];

type Json = Record<string, unknown> | unknown[];

/** Every place in a JSON value: a container and a key or index in it. */
function placesOf(
  value: unknown,
  places: [Json, string | number][] = [],
): [Json, string | number][] {
  if (Array.isArray(value))
    value.forEach((item, index) => {
      places.push([value, index]);
      placesOf(item, places);
    });
  else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value)) {
      places.push([value as Record<string, unknown>, key]);
      placesOf(item, places);
    }
  return places;
}

/** A copy of `record` with one place set to another value, removed, or a field added. */
function mutated(record: unknown, random: () => number): unknown {
  const copy = structuredClone(record);
  const places = placesOf(copy);
  const [container, key] = places[Math.floor(random() * places.length)]!;
  const choice = Math.floor(random() * (REPLACEMENTS.length + 2));
  if (choice === REPLACEMENTS.length) {
    if (Array.isArray(container)) container.splice(key as number, 1);
    else delete container[key as string];
  } else if (choice === REPLACEMENTS.length + 1) {
    if (!Array.isArray(container)) container.unlisted = { kept: true };
  } else {
    (container as Record<string | number, unknown>)[key] = structuredClone(REPLACEMENTS[choice]);
  }
  return copy;
}

function agreement(schema: z.ZodType, records: readonly unknown[], rounds: number) {
  const check = schemaCheckOf(schema);
  if (!check) throw new Error("the schema has no compiled check");
  const generator = new Random(17, "mutations");
  const random = () => generator.nextUint32() / 2 ** 32;
  const disagreements: unknown[] = [];
  let refused = 0;
  for (let i = 0; i < rounds; i++) {
    const record = mutated(records[i % records.length], random);
    const zodSays = schema.safeParse(record).success;
    if (!zodSays) refused++;
    if (check(record) !== zodSays) disagreements.push(record);
  }
  return { disagreements: disagreements.slice(0, 3), refused };
}

describe("a check compiled from a response schema", () => {
  it("passes every record the simulator serves", () => {
    const cases: [z.ZodType, readonly unknown[]][] = [
      [orderSchema, orders],
      [reportSchema, reports],
      [productSchema, dataset.products(location)],
      [categorySchema, dataset.categories(location)],
      [modifierSchema, dataset.modifiers(location)],
      [paymentMethodSchema, dataset.paymentMethods(location)],
      [taxSchema, dataset.taxes(location)],
    ];
    for (const [schema, records] of cases) {
      expect(records.length).toBeGreaterThan(0);
      const check = schemaCheckOf(schema);
      expect(check).toBeDefined();
      for (const record of records) expect(check?.(JSON.parse(JSON.stringify(record)))).toBe(true);
    }
  });

  it.each([
    ["orders", orderSchema, orders],
    ["reports", reportSchema, reports],
  ] as const)(
    "accepts exactly what zod accepts, on %s mutated field by field",
    (_, schema, records) => {
      const { disagreements, refused } = agreement(schema, records, 4000);
      expect(disagreements).toEqual([]);
      // The mutations reach both sides: many records are refused, many still pass.
      expect(refused).toBeGreaterThan(1000);
      expect(refused).toBeLessThan(3900);
    },
  );

  it("leaves zod alone to validate a schema whose output is not its input", () => {
    expect(schemaCheckOf(z.object({ id: z.string() }))).toBeUndefined();
    expect(schemaCheckOf(z.looseObject({ n: z.coerce.number() }))).toBeUndefined();
    expect(schemaCheckOf(z.looseObject({ n: z.number().default(0) }))).toBeUndefined();
    expect(
      schemaCheckOf(z.looseObject({ s: z.string().transform((s) => s.trim()) })),
    ).toBeUndefined();
    expect(schemaCheckOf(locationSchema)).toBeDefined();
  });
});

describe("validating a record", () => {
  it("keeps the record as parsed when it passes, and zod's words when it does not", () => {
    const order = JSON.parse(JSON.stringify(orders[0]));
    const passed = validateRecord(orderSchema, order);
    expect(passed.ok && passed.valid.record).toBe(order);
    const refused = validateRecord(orderSchema, { ...order, total: "12" });
    expect(refused).toMatchObject({
      ok: false,
      reject: { recordId: order.id, reason: "total: expected number, received string" },
    });
  });
});
