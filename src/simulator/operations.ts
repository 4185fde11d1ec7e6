/** The operations of the API, and where the simulator serves the ones whose path the spec does
 * not show (defaults as in the design's configuration). */

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

export interface UnshownPaths {
  /** Contains `{id}`. */
  report: string;
  paymentMethods: string;
  taxes: string;
  health: string;
}

export const DEFAULT_UNSHOWN_PATHS: UnshownPaths = {
  report: "/v1/reports/{id}",
  paymentMethods: "/v1/catalog/payment-methods/",
  taxes: "/v1/catalog/taxes/",
  health: "/health",
};

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

/** "/v1/reports/{id}" → /^\/v1\/reports\/([^/]+)\/?$/ ; a trailing slash is optional. */
function compile(template: string): RegExp {
  const trimmed = template.endsWith("/") ? template.slice(0, -1) : template;
  const source = escapeRegExp(trimmed).replace("\\{id\\}", "([^/]+)");
  return new RegExp(`^${source}/?$`);
}

export function routeTable(paths: UnshownPaths): RoutePattern[] {
  const table: [Operation, string][] = [
    ["health", paths.health],
    ["listOrders", "/v1/orders/"],
    ["listReports", "/v1/reports/"],
    ["getLocation", "/v1/locations/own"],
    ["listProducts", "/v1/catalog/"],
    ["listModifiers", "/v1/catalog/modifiers/"],
    ["listCategories", "/v1/catalog/categories/"],
    ["listPaymentMethods", paths.paymentMethods],
    ["listTaxes", paths.taxes],
    // Templates last, so that fixed paths win over an {id} segment.
    ["getOrder", "/v1/orders/{id}"],
    ["getReport", paths.report],
  ];
  return table.map(([operation, template]) => ({ operation, pattern: compile(template) }));
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
