/** The list envelope of spec 2.8: data, meta, pagination links and a next-page token. */
import { createHash } from "node:crypto";
import type { PageTokenForm } from "./faults.js";

export interface ListEnvelopeBody<T> {
  data: T[];
  meta: { totalCount: number; currentPageIndex: number; totalPage: number; pageSize: number };
  links: { self: string; first: string; last: string; next: string | null; prev: string | null };
  nextPageToken?: string;
}

function pageLink(requestUrl: URL, index: number): string {
  const url = new URL(requestUrl);
  url.searchParams.set("index", String(index));
  return url.toString();
}

function pageToken(
  requestUrl: URL,
  page: { index: number; size: number; tokenForm?: PageTokenForm },
): string | undefined {
  const form = page.tokenForm ?? "encoded-index";
  if (form === "none") return undefined;
  const next = { index: page.index + 1, size: page.size };
  if (form === "encoded-index") return Buffer.from(JSON.stringify(next)).toString("base64url");
  // A cursor that means nothing to a client: a digest of where the next page starts.
  return createHash("sha256")
    .update(`${requestUrl.pathname}${requestUrl.search}#${next.index}`)
    .digest("base64url")
    .slice(0, 24);
}

export function listEnvelope<T>(
  requestUrl: URL,
  data: T[],
  page: {
    index: number;
    size: number;
    totalCount: number;
    reportedTotalCount: number;
    tokenForm?: PageTokenForm;
  },
): ListEnvelopeBody<T> {
  const totalPage = Math.ceil(page.reportedTotalCount / page.size);
  const lastIndex = Math.max(0, totalPage - 1);
  const hasNext = page.index < lastIndex;
  const body: ListEnvelopeBody<T> = {
    data,
    meta: {
      totalCount: page.reportedTotalCount,
      currentPageIndex: page.index,
      totalPage,
      pageSize: page.size,
    },
    links: {
      self: requestUrl.toString(),
      first: pageLink(requestUrl, 0),
      last: pageLink(requestUrl, lastIndex),
      next: hasNext ? pageLink(requestUrl, page.index + 1) : null,
      prev: page.index > 0 ? pageLink(requestUrl, page.index - 1) : null,
    },
  };
  const token = hasNext ? pageToken(requestUrl, page) : undefined;
  if (token !== undefined) body.nextPageToken = token;
  return body;
}
