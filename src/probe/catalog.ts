/**
 * The catalog: the three lists the spec places (a sample of each, and a problem when one does
 * not answer), then the payment-method and tax lists, which it does not place.
 */
import type { z } from "zod";
import { SHOWN_PATHS } from "../api/paths.js";
import {
  categorySchema,
  modifierSchema,
  paymentMethodSchema,
  productSchema,
  taxSchema,
} from "../api/schemas.js";
import { addSample, isArrayAnswer, lastEvidence, type ProbeContext } from "./context.js";
import { findPath } from "./find-path.js";
import type { ProbeAnswer } from "./probe-http.js";

const SHOWN_LISTS = [
  { resource: "product", path: SHOWN_PATHS.products, schema: productSchema },
  { resource: "modifier", path: SHOWN_PATHS.modifiers, schema: modifierSchema },
  { resource: "category", path: SHOWN_PATHS.categories, schema: categorySchema },
] as const;

/**
 * Whether an answer is a list of this resource: most of its elements fit the schema, and it is
 * not the products list served again (a server matching `/v1/catalog/{anything}`). An empty
 * array could be anything: only inferred.
 */
function listOf(schema: z.ZodType, products: string | undefined) {
  return (answer: ProbeAnswer): "observed" | "inferred" | undefined => {
    if (!isArrayAnswer(answer)) return undefined;
    if (answer.json.length === 0) return "inferred";
    if (products !== undefined && JSON.stringify(answer.json) === products) return undefined;
    const fitting = answer.json.filter((element) => schema.safeParse(element).success).length;
    return fitting * 2 >= answer.json.length ? "observed" : undefined;
  };
}

/** Reads the lists the spec places; answers the products list's JSON, to tell it apart. */
async function readShownLists(context: ProbeContext): Promise<string | undefined> {
  const failures: string[] = [];
  let products: string | undefined;
  for (const list of SHOWN_LISTS) {
    const answer = await context.http.get(
      `${list.resource} list`,
      list.path,
      context.authorization,
    );
    if (isArrayAnswer(answer)) {
      addSample(context, list.resource, list.schema, answer.json);
      if (list.resource === "product") products = JSON.stringify(answer.json);
    } else failures.push(lastEvidence(context));
  }
  if (failures.length === 0) return products;
  context.findings.push({
    topic: "catalog",
    title: "Catalog lists the spec places",
    answer: `${failures.length} of ${SHOWN_LISTS.length} did not answer an array`,
    certainty: "observed",
    evidence: failures,
    problem: "the catalog stream will fail on these lists: the server departs from the spec here",
  });
  return products;
}

export async function probeCatalog(context: ProbeContext): Promise<void> {
  const products = await readShownLists(context);
  const paymentMethods = await findPath(context, {
    operation: "paymentMethods",
    topic: "payment-methods-path",
    title: "Payment methods",
    accepts: listOf(paymentMethodSchema, products),
    authorization: context.authorization,
  });
  if (paymentMethods)
    addSample(
      context,
      "payment method",
      paymentMethodSchema,
      paymentMethods.answer.json as unknown[],
    );
  const taxes = await findPath(context, {
    operation: "taxes",
    topic: "taxes-path",
    title: "Taxes",
    accepts: listOf(taxSchema, products),
    authorization: context.authorization,
  });
  if (taxes) addSample(context, "tax", taxSchema, taxes.answer.json as unknown[]);
}
