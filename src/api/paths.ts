/** Where the operations live. Four paths are not shown by the spec: they are configurable, with
 * the defaults docs/connecting.md lists. */

export interface ApiPaths {
  /** Contains `{id}`. */
  report: string;
  paymentMethods: string;
  taxes: string;
  health: string;
}

export const DEFAULT_API_PATHS: Readonly<ApiPaths> = {
  report: "/v1/reports/{id}",
  paymentMethods: "/v1/catalog/payment-methods/",
  taxes: "/v1/catalog/taxes/",
  health: "/health",
};

/** The environment variable that moves each unshown path. */
export const PATH_SETTINGS: Readonly<Record<keyof ApiPaths, string>> = {
  report: "POS_PATH_REPORT",
  paymentMethods: "POS_PATH_PAYMENT_METHODS",
  taxes: "POS_PATH_TAXES",
  health: "POS_PATH_HEALTH",
};

export const SHOWN_PATHS = {
  orders: "/v1/orders/",
  order: "/v1/orders/{id}",
  reports: "/v1/reports/",
  location: "/v1/locations/own",
  products: "/v1/catalog/",
  modifiers: "/v1/catalog/modifiers/",
  categories: "/v1/catalog/categories/",
} as const;

export function withId(template: string, id: string): string {
  return template.replace("{id}", encodeURIComponent(id));
}
