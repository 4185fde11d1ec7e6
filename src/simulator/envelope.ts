/** The list envelope of spec 2.8: data, meta, pagination links and a next-page token. */

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

export function listEnvelope<T>(
  requestUrl: URL,
  data: T[],
  page: { index: number; size: number; totalCount: number; reportedTotalCount: number },
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
  if (hasNext) {
    body.nextPageToken = Buffer.from(
      JSON.stringify({ index: page.index + 1, size: page.size }),
    ).toString("base64url");
  }
  return body;
}
