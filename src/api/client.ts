/**
 * The client of one API key (one location): every operation of the spec, authenticated, and
 * validated record by record.
 */
import type { z } from "zod";
import { keyFingerprint } from "../secrets.js";
import type { DayRange } from "../vocabulary.js";
import { ApiEndpointNotFoundError, ApiResponseError } from "./errors.js";
import { PAGE_SIZE, PageWalk } from "./pagination.js";
import { type ApiPaths, DEFAULT_API_PATHS, PATH_SETTINGS, SHOWN_PATHS, withId } from "./paths.js";
import {
  healthSchema,
  listEnvelopeSchema,
  locationSchema,
  orderSchema,
  reportSchema,
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

export type RecordResult<T> =
  | { ok: true; valid: ValidRecord<T> }
  | { ok: false; reject: RejectedRecord };

/** Where a list is read: a path the spec shows, or one of the paths it does not show, which a
 * setting may move (see paths.ts). */
export type Listing =
  | { operation: string; path: string }
  | { operation: string; unshownPath: keyof ApiPaths };

/** A day filter of a list, optionally narrowed to one report's orders. */
export type ListFilter = Required<DayRange> & { reportId?: string };

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

  /** A whole list (the catalog lists): every record validated on its own. */
  async list<T>(listing: Listing, schema: z.ZodType<T>): Promise<ValidatedRecords<T>> {
    const body =
      "unshownPath" in listing
        ? await this.getUnshown(
            listing.operation,
            listing.unshownPath,
            this.paths[listing.unshownPath],
          )
        : await this.get(listing.operation, listing.path);
    if (!Array.isArray(body)) {
      throw new ApiResponseError(
        { operation: listing.operation, target: this.pathOf(listing) },
        "expected an array",
        false,
      );
    }
    return validateRecords(schema, body, this.transport.lane);
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

  /** The API's count of records of a list in a range, read cheaply with size=1. */
  async count(listing: Listing, range: Required<DayRange>): Promise<number> {
    const path = this.pathOf(listing);
    const body = await this.get(listing.operation, path, {
      query: { since: range.since, until: range.until, size: 1, index: 0 },
    });
    const meta = (body as { meta?: { totalCount?: unknown } } | null)?.meta;
    if (typeof meta?.totalCount !== "number") {
      throw new ApiResponseError(
        { operation: listing.operation, target: path },
        "meta.totalCount is missing",
        false,
      );
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

  /** A list read page by page under a day filter (orders, reports). */
  walk<T>(listing: Listing, schema: z.ZodType<T>, filter: ListFilter): PageWalk<z.ZodType<T>> {
    const { operation } = listing;
    const path = this.pathOf(listing);
    const query = (index: number, size: number) => ({
      since: filter.since,
      until: filter.until,
      reportId: filter.reportId,
      size,
      index,
    });
    return new PageWalk(
      (index, size) => this.get(operation, path, { query: query(index, size) }),
      schema,
      (index) => ({ operation, target: describeTarget(path, query(index, this.pageSize)) }),
      this.transport.lane,
      this.pageSize,
    );
  }

  private pathOf(listing: Listing): string {
    return "unshownPath" in listing ? this.paths[listing.unshownPath] : listing.path;
  }
}
