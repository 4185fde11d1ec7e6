/**
 * Walking a list endpoint page by page without trusting the server blindly. The walk stops on an
 * empty page, after the last page `meta.totalPage` announces, or when a page past the end is
 * answered with an error status; it never reads more pages than `meta.totalCount` can justify;
 * records seen on an earlier page are dropped (unless they changed in between); and a
 * `totalCount` that moves during the walk is reported, so that the caller can read the window
 * again.
 */
import type { z } from "zod";
import { contentHash } from "../content-hash.js";
import { type CpuLane, PAGE_STEP } from "../cpu-lane.js";
import { ApiResponseError, ApiStatusError } from "./errors.js";
import { type ListMeta, listEnvelopeSchema } from "./schemas.js";
import {
  describeIssues,
  type RejectedRecord,
  type ValidRecord,
  validateRecords,
} from "./validate.js";

export const PAGE_SIZE = 100;
/** No walk reads more pages than this, whatever the server says: a million records a day. */
export const MAX_PAGES = 10_000;
/** Pages beyond what totalCount justifies, for records that arrive during the walk. */
const EXTRA_PAGES = 2;
/** Consecutive pages with nothing new before deciding the server ignores `index`. */
const PAGES_WITHOUT_PROGRESS = 3;

export interface Page<T> {
  index: number;
  records: ValidRecord<T>[];
  rejects: RejectedRecord[];
  meta: ListMeta;
  /** Records an earlier page had too (dropped, unless their JSON changed in between). */
  duplicates: number;
}

export type WalkEnd = "last-page" | "empty-page" | "past-end-status" | "page-bound" | "no-progress";

export interface WalkSummary {
  pages: number;
  firstTotalCount: number | null;
  lastTotalCount: number | null;
  /** totalCount or totalPage differed between two pages of the walk. */
  countChanged: boolean;
  endedBy: WalkEnd | null;
  /** Distinct records handed to the caller, valid and rejected. */
  distinctRecords: number;
  duplicates: number;
}

/** Fetches one page's JSON body; throws ApiError as the transport does. */
export type PageFetcher = (index: number, size: number) => Promise<unknown>;

export class PageWalk<S extends z.ZodType> implements AsyncIterable<Page<z.output<S>>> {
  readonly summary: WalkSummary = {
    pages: 0,
    firstTotalCount: null,
    lastTotalCount: null,
    countChanged: false,
    endedBy: null,
    distinctRecords: 0,
    duplicates: 0,
  };

  constructor(
    private readonly fetchPage: PageFetcher,
    private readonly schema: S,
    private readonly describeTarget: (index: number) => { operation: string; target: string },
    /** The thread's CPU lane: checking a page takes a turn in it. */
    private readonly lane: CpuLane,
    private readonly pageSize = PAGE_SIZE,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Page<z.output<S>>> {
    // Each record seen so far, by its content hash: a day of 2,500 orders would hold 8 MB of JSON.
    const seen = new Map<string, number>();
    let pageBound = MAX_PAGES;
    let previousMeta: ListMeta | undefined;
    let pagesWithoutProgress = 0;

    for (let index = 0; ; index++) {
      if (index >= pageBound) return this.end("page-bound");
      const read = await this.readPage(index, previousMeta, seen);
      if (read === undefined) return this.end("past-end-status");
      const { page, empty } = read;
      const { meta } = page;
      const progress = page.records.length + page.rejects.length > 0;
      previousMeta = meta;
      // Nothing of the page is held while the caller stores it: this frame keeps only its figures.
      yield page;

      if (empty) return this.end("empty-page");
      if (index >= meta.totalPage - 1) return this.end("last-page");
      pagesWithoutProgress = progress ? 0 : pagesWithoutProgress + 1;
      if (pagesWithoutProgress >= PAGES_WITHOUT_PROGRESS) return this.end("no-progress");
      const perPage = meta.pageSize > 0 ? Math.min(meta.pageSize, this.pageSize) : this.pageSize;
      pageBound = Math.min(MAX_PAGES, Math.ceil(meta.totalCount / perPage) + EXTRA_PAGES);
    }
  }

  /** A page read, validated and rid of records seen earlier in the walk, or undefined past the
   * end. Its body lives no longer than this call. */
  private async readPage(
    index: number,
    previousMeta: ListMeta | undefined,
    seen: Map<string, number>,
  ): Promise<{ page: Page<z.output<S>>; empty: boolean } | undefined> {
    const body = await this.fetchOrEnd(index);
    if (body === undefined) return undefined;
    return this.lane.turn(PAGE_STEP.validate, async () => {
      const envelope = listEnvelopeSchema.safeParse(body);
      if (!envelope.success) {
        throw new ApiResponseError(
          this.describeTarget(index),
          `the list envelope does not match the spec (${describeIssues(envelope.error.issues)})`,
          false,
        );
      }
      const { meta, data } = envelope.data;
      // The body's list holds the same records as the envelope's copy: let go of it, so that
      // validating the copy frees each record's JSON as it goes.
      (body as { data?: unknown }).data = undefined;
      this.track(meta, previousMeta);
      const page = this.dedupe(
        index,
        meta,
        await validateRecords(this.schema, data, this.lane),
        seen,
      );
      return { page, empty: data.length === 0 };
    });
  }

  /** A page's body, or undefined when a page after the first is answered 400 or 404: the
   * server's way of saying there is no such page. */
  private async fetchOrEnd(index: number): Promise<unknown> {
    try {
      return await this.fetchPage(index, this.pageSize);
    } catch (error) {
      const pastEnd =
        index > 0 &&
        error instanceof ApiStatusError &&
        (error.status === 404 || error.status === 400);
      if (pastEnd) return undefined;
      throw error;
    }
  }

  private track(meta: ListMeta, previous: ListMeta | undefined): void {
    this.summary.pages++;
    this.summary.firstTotalCount ??= meta.totalCount;
    this.summary.lastTotalCount = meta.totalCount;
    if (
      previous &&
      (previous.totalCount !== meta.totalCount || previous.totalPage !== meta.totalPage)
    ) {
      this.summary.countChanged = true;
    }
  }

  /**
   * Drops a record seen earlier in the walk with the same JSON. One seen with other JSON changed
   * between two pages: it is kept (the store keeps the newer version) but not counted again.
   */
  private dedupe(
    index: number,
    meta: ListMeta,
    validated: { records: ValidRecord<z.output<S>>[]; rejects: RejectedRecord[] },
    seen: Map<string, number>,
  ): Page<z.output<S>> {
    let duplicates = 0;
    let distinct = 0;
    const keep = (id: string | null, raw: string, known?: number) => {
      if (id === null) {
        distinct++;
        return true;
      }
      const earlier = seen.get(id);
      const hash = known ?? contentHash(raw);
      seen.set(id, hash);
      if (earlier === undefined) {
        distinct++;
        return true;
      }
      duplicates++;
      return earlier !== hash;
    };
    const records = validated.records.filter((r) =>
      keep((r.record as { id: string }).id, r.raw, r.hash),
    );
    const rejects = validated.rejects.filter((r) => keep(r.recordId, r.raw));
    this.summary.duplicates += duplicates;
    this.summary.distinctRecords += distinct;
    return { index, records, rejects, meta, duplicates };
  }

  private end(reason: WalkEnd): void {
    this.summary.endedBy = reason;
  }
}
