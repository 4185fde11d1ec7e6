/** The operations of the API and the simulator's routing table. The paths the spec does not
 * show default to where pos-sync looks for them. */
import { type ApiPaths, SHOWN_PATHS } from "../api/paths.js";

export const OPERATIONS = [
  "health",
  "listOrders",
  "getOrder",
  "listReports",
  "getReport",
  "getLocation",
  "listProducts",
  "listModifiers",
  "listCategories",
  "listPaymentMethods",
  "listTaxes",
] as const;

export type Operation = (typeof OPERATIONS)[number];

export interface Route {
  operation: Operation;
  id?: string;
}

interface RoutePattern {
  operation: Operation;
  pattern: RegExp;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** "/v1/reports/{id}" → /^\/v1\/reports\/([^/]+)\/?$/ : a trailing slash is optional, unless
 * slashes are strict (a server that routes "/taxes" and "/taxes/" apart). */
function compile(template: string, strictSlashes: boolean): RegExp {
  const trimmed = template.endsWith("/") ? template.slice(0, -1) : template;
  const source = escapeRegExp(trimmed).replace("\\{id\\}", "([^/]+)");
  if (strictSlashes) return new RegExp(`^${source}${template.endsWith("/") ? "/" : ""}$`);
  return new RegExp(`^${source}/?$`);
}

export function routeTable(paths: ApiPaths, strictSlashes = false): RoutePattern[] {
  const table: [Operation, string][] = [
    ["health", paths.health],
    ["listOrders", SHOWN_PATHS.orders],
    ["listReports", SHOWN_PATHS.reports],
    ["getLocation", SHOWN_PATHS.location],
    ["listProducts", SHOWN_PATHS.products],
    ["listModifiers", SHOWN_PATHS.modifiers],
    ["listCategories", SHOWN_PATHS.categories],
    ["listPaymentMethods", paths.paymentMethods],
    ["listTaxes", paths.taxes],
    // Templates last, so that fixed paths win over an {id} segment.
    ["getOrder", SHOWN_PATHS.order],
    ["getReport", paths.report],
  ];
  return table.map(([operation, template]) => ({
    operation,
    pattern: compile(template, strictSlashes),
  }));
}

export function resolveRoute(table: readonly RoutePattern[], pathname: string): Route | undefined {
  for (const { operation, pattern } of table) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    const id = match[1];
    return id === undefined ? { operation } : { operation, id: decodeURIComponent(id) };
  }
  return undefined;
}
