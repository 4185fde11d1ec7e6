/**
 * Where the probe looks for the operations the spec does not place, in the spec's own style
 * (`/v1/catalog/…`, `/v1/reports/…`): plural and singular, with and without the trailing
 * slash. The path in effect (a setting, else pos-sync's default) is tried first, so a server
 * that already matches costs one request each. docs/connecting.md lists these.
 */
import type { ApiPaths } from "../api/paths.js";

export const CANDIDATE_PATHS: Readonly<Record<keyof ApiPaths, readonly string[]>> = {
  report: ["/v1/reports/{id}", "/v1/reports/{id}/", "/v1/report/{id}", "/v1/report/{id}/"],
  paymentMethods: [
    "/v1/catalog/payment-methods/",
    "/v1/catalog/payment-methods",
    "/v1/catalog/payment-method/",
    "/v1/catalog/payment-method",
    "/v1/catalog/paymentMethods/",
    "/v1/catalog/paymentMethods",
    "/v1/catalog/payments/",
    "/v1/catalog/payments",
  ],
  taxes: ["/v1/catalog/taxes/", "/v1/catalog/taxes", "/v1/catalog/tax/", "/v1/catalog/tax"],
  health: ["/health", "/health/", "/v1/health", "/v1/health/", "/healthz", "/status"],
};

/** The candidates for one operation, the path in effect first, each once. */
export function candidatesFor(operation: keyof ApiPaths, inEffect: string): string[] {
  return [...new Set([inEffect, ...CANDIDATE_PATHS[operation]])];
}

/** The authorization schemes tried, in order, after the one in effect; the first scheme a
 * server's WWW-Authenticate challenge names is tried next, before the rest of these. */
export const CANDIDATE_SCHEMES: readonly string[] = ["", "Bearer", "Token"];
