/**
 * The catalog: the three lists the spec places (a sample of each, and a problem when one does
 * not answer), then the payment-method and tax lists, which it does not place.
 */
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

const SHOWN_LISTS = [
  { resource: "product", path: SHOWN_PATHS.products, schema: productSchema },
  { resource: "modifier", path: SHOWN_PATHS.modifiers, schema: modifierSchema },
  { resource: "category", path: SHOWN_PATHS.categories, schema: categorySchema },
] as const;

async function readShownLists(context: ProbeContext): Promise<void> {
  const failures: string[] = [];
  for (const list of SHOWN_LISTS) {
    const answer = await context.http.get(
      `${list.resource} list`,
      list.path,
      context.authorization,
    );
    if (isArrayAnswer(answer)) addSample(context, list.resource, list.schema, answer.json);
    else failures.push(lastEvidence(context));
  }
  if (failures.length === 0) return;
  context.findings.push({
    topic: "catalog",
    title: "Catalog lists the spec places",
    answer: `${failures.length} of ${SHOWN_LISTS.length} did not answer an array`,
    certainty: "observed",
    evidence: failures,
    problem: "the catalog stream will fail on these lists: the server departs from the spec here",
  });
}

export async function probeCatalog(context: ProbeContext): Promise<void> {
  await readShownLists(context);
  const paymentMethods = await findPath(context, {
    operation: "paymentMethods",
    topic: "payment-methods-path",
    title: "Payment methods",
    accepts: isArrayAnswer,
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
    accepts: isArrayAnswer,
    authorization: context.authorization,
  });
  if (taxes) addSample(context, "tax", taxSchema, taxes.answer.json as unknown[]);
}
