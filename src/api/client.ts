/**
 * The client of one API key (one location): every operation of the spec, authenticated, and
 * validated record by record.
 */
import type { z } from "zod";
import { keyFingerprint } from "../secrets.js";
import { ApiEndpointNotFoundError, ApiResponseError } from "./errors.js";
import { PAGE_SIZE, PageWalk } from "./pagination.js";
import { type ApiPaths, DEFAULT_API_PATHS, PATH_SETTINGS, SHOWN_PATHS, withId } from "./paths.js";
import {
  categorySchema,
  healthSchema,
  listEnvelopeSchema,
  locationSchema,
  modifierSchema,
  orderSchema,
  paymentMethodSchema,
  productSchema,
  reportSchema,
  taxSchema,
} from "./schemas.js";
import { describeTarget, type HttpTransport, type JsonRequest } from "./transport.js";
import {
  type RejectedRecord,
  type ValidatedRecords,
  type ValidRecord,
  validateRecord,
  validateRecords,
} from "./validate.js";

export interface ClientOptions {
  apiKey: string;
  /** Prefix of the authorization header value ("Bearer"); empty sends the bare key. */
  authScheme?: string;
  paths?: Partial<ApiPaths>;
  pageSize?: number;
  /** Aborts every request of this client (shutdown). */
  signal?: AbortSignal;
}

export interface DayRange {
  since: string;
  until: string;
}

export type RecordResult<T> =
  | { ok: true; valid: ValidRecord<T> }
  | { ok: false; reject: RejectedRecord };

const CATALOG = {
  products: { schema: productSchema, operation: "listProducts", path: () => SHOWN_PATHS.products },
  categories: {
    schema: categorySchema,
    operation: "listCategories",
    path: () => SHOWN_PATHS.categories,
  },
  modifiers: {
    schema: modifierSchema,
    operation: "listModifiers",
    path: () => SHOWN_PATHS.modifiers,
  },
  paymentMethods: {
    schema: paymentMethodSchema,
    operation: "listPaymentMethods",
    unshown: "paymentMethods",
  },
  taxes: { schema: taxSchema, operation: "listTaxes", unshown: "taxes" },
} as const;

export type CatalogResource = keyof typeof CATALOG;
export const CATALOG_RESOURCES = Object.keys(CATALOG) as CatalogResource[];
export type CatalogRecord<R extends CatalogResource> = z.output<(typeof CATALOG)[R]["schema"]>;

export class PosApiClient {
  /** A short fingerprint of the key: names it in status output without revealing it. */
  readonly keyFingerprint: string;
  /** Names the key in messages: "the API key key#1a2b3c4d". */
  readonly keyLabel: string;
  private readonly authorization: string;
  private readonly authScheme: string;
  private readonly paths: ApiPaths;
  private readonly pageSize: number;
  private readonly secrets: readonly string[];

  constructor(
    private readonly transport: HttpTransport,
    private readonly options: ClientOptions,
  ) {
    const scheme = options.authScheme?.trim() ?? "";
    this.authScheme = scheme;
    this.authorization = scheme === "" ? options.apiKey : `${scheme} ${options.apiKey}`;
    this.keyFingerprint = keyFingerprint(options.apiKey);
    this.keyLabel = `the API key ${this.keyFingerprint}`;
    this.paths = { ...DEFAULT_API_PATHS, ...options.paths };
    this.pageSize = options.pageSize ?? PAGE_SIZE;
    this.secrets = [options.apiKey, this.authorization];
  }

  private get(operation: string, path: string, extra: Partial<JsonRequest> = {}): Promise<unknown> {
    return this.transport.getJson({
      operation,
      path,
      authorization: this.authorization,
      authScheme: this.authScheme,
      secrets: this.secrets,
      keyLabel: this.keyLabel,
      ...(this.options.signal ? { signal: this.options.signal } : {}),
      ...extra,
    });
  }

  /** GET on a path the spec does not show: a 404 there means the setting is wrong or the API
   * lacks the operation, which the caller reports as an unavailable stream. */
  private async getUnshown(
    operation: string,
    path: keyof ApiPaths,
    target: string,
    extra: Partial<JsonRequest> = {},
  ) {
    const body = await this.get(operation, target, { ...extra, notFound: "absent" });
    if (body === null)
      throw new ApiEndpointNotFoundError({ operation, target }, `${PATH_SETTINGS[path]}`);
    return body;
  }

  async health(): Promise<RecordResult<z.output<typeof healthSchema>>> {
    // Health takes no key: the spec exempts it, and a server need not see one it does not ask for.
    const body = await this.getUnshown("health", "health", this.paths.health, {
      authorization: "",
    });
    return validateRecord(healthSchema, body);
  }

  async location(): Promise<RecordResult<z.output<typeof locationSchema>>> {
    const body = await this.get("getLocation", SHOWN_PATHS.location, { query: { devices: true } });
    return validateRecord(locationSchema, body);
  }

  async catalog<R extends CatalogResource>(
    resource: R,
  ): Promise<ValidatedRecords<CatalogRecord<R>>> {
    const entry = CATALOG[resource];
    const body =
      "unshown" in entry
        ? await this.getUnshown(entry.operation, entry.unshown, this.paths[entry.unshown])
        : await this.get(entry.operation, entry.path());
    if (!Array.isArray(body)) {
      throw new ApiResponseError(
        { operation: entry.operation, target: resource },
        "expected an array",
        false,
      );
    }
    return validateRecords(entry.schema, body) as ValidatedRecords<CatalogRecord<R>>;
  }

  orders(range: DayRange & { reportId?: string }): PageWalk<typeof orderSchema> {
    return this.walk("listOrders", SHOWN_PATHS.orders, orderSchema, range);
  }

  reports(range: DayRange): PageWalk<typeof reportSchema> {
    return this.walk("listReports", SHOWN_PATHS.reports, reportSchema, range);
  }

  /** One order by id; null when the API has no such order. */
  async order(id: string): Promise<RecordResult<z.output<typeof orderSchema>> | null> {
    const body = await this.get("getOrder", withId(SHOWN_PATHS.order, id), { notFound: "absent" });
    return body === null ? null : validateRecord(orderSchema, body);
  }

  /** One report by id; null when the API has no such report (or does not serve reports by id at
   * the configured path, which a 404 cannot tell apart). */
  async report(id: string): Promise<RecordResult<z.output<typeof reportSchema>> | null> {
    const body = await this.get("getReport", withId(this.paths.report, id), { notFound: "absent" });
    return body === null ? null : validateRecord(reportSchema, body);
  }

  /** The API's count of records in a range, read cheaply with size=1. */
  async count(stream: "orders" | "reports", range: DayRange): Promise<number> {
    const operation = stream === "orders" ? "listOrders" : "listReports";
    const path = stream === "orders" ? SHOWN_PATHS.orders : SHOWN_PATHS.reports;
    const body = await this.get(operation, path, {
      query: { since: range.since, until: range.until, size: 1, index: 0 },
    });
    const meta = (body as { meta?: { totalCount?: unknown } } | null)?.meta;
    if (typeof meta?.totalCount !== "number") {
      throw new ApiResponseError({ operation, target: path }, "meta.totalCount is missing", false);
    }
    return meta.totalCount;
  }

  /** The first and the last record of the unfiltered reports list (two requests of one record
   * each), whichever way the API orders it: their createdAt and startedAt, as sent. */
  async reportEnds(): Promise<{ createdAt: unknown; startedAt: unknown }[]> {
    const page = async (index: number) => {
      const body = await this.get("listReports", SHOWN_PATHS.reports, {
        query: { size: 1, index },
      });
      const parsed = listEnvelopeSchema.safeParse(body);
      if (!parsed.success) {
        throw new ApiResponseError(
          { operation: "listReports", target: SHOWN_PATHS.reports },
          "not a list envelope",
          false,
        );
      }
      const first = parsed.data.data[0] as { createdAt?: unknown; startedAt?: unknown } | undefined;
      return { totalCount: parsed.data.meta.totalCount, record: first };
    };
    const head = await page(0);
    const ends =
      head.totalCount > 1 ? [head.record, (await page(head.totalCount - 1)).record] : [head.record];
    return ends.flatMap((r) => (r ? [{ createdAt: r.createdAt, startedAt: r.startedAt }] : []));
  }

  private walk<S extends z.ZodType>(
    operation: string,
    path: string,
    schema: S,
    range: DayRange & { reportId?: string },
  ): PageWalk<S> {
    const query = (index: number, size: number) => ({
      since: range.since,
      until: range.until,
      reportId: range.reportId,
      size,
      index,
    });
    return new PageWalk(
      (index, size) => this.get(operation, path, { query: query(index, size) }),
      schema,
      (index) => ({ operation, target: describeTarget(path, query(index, this.pageSize)) }),
      this.pageSize,
    );
  }
}
