/**
 * How the two list operations page: the order of their records, whether `index` is honoured,
 * what a page past the last one answers, what `nextPageToken` holds, and what `size` above 100
 * gets. Five small pages of orders and one of reports tell it all.
 */
import { SHOWN_PATHS } from "../api/paths.js";
import { type ListMeta, listEnvelopeSchema, orderSchema, reportSchema } from "../api/schemas.js";
import { addSample, isJsonObject, lastEvidence, type ProbeContext } from "./context.js";
import type { Finding } from "./findings.js";
import type { ProbeQuery } from "./probe-http.js";

/** Small pages: enough records to see an order, few bytes. */
const SAMPLE_PAGE_SIZE = 5;
const OVERSIZE = 101;

interface ListPage {
  status: number;
  /** A 200 with a list envelope. */
  ok: boolean;
  data: unknown[];
  meta?: ListMeta;
  nextPageToken?: string | null | undefined;
  evidence: string;
}

async function readPage(
  context: ProbeContext,
  purpose: string,
  path: string,
  query: ProbeQuery,
): Promise<ListPage> {
  const answer = await context.http.get(purpose, path, context.authorization, { query });
  const parsed = listEnvelopeSchema.safeParse(answer.json);
  const evidence = lastEvidence(context);
  if (answer.status !== 200 || !parsed.success) {
    return { status: answer.status, ok: false, data: [], evidence };
  }
  return {
    status: answer.status,
    ok: true,
    data: parsed.data.data,
    meta: parsed.data.meta,
    nextPageToken: parsed.data.nextPageToken,
    evidence,
  };
}

export type Direction = "ascending" | "descending" | "unordered" | "unknown";

/** The order of records by createdAt, as served. */
export function listDirection(records: readonly unknown[]): Direction {
  const times = records
    .map((r) =>
      isJsonObject(r) && typeof r.createdAt === "string" ? Date.parse(r.createdAt) : NaN,
    )
    .filter(Number.isFinite);
  let rising = false;
  let falling = false;
  for (let i = 1; i < times.length; i++) {
    const step = (times[i] as number) - (times[i - 1] as number);
    if (step > 0) rising = true;
    if (step < 0) falling = true;
  }
  if (rising && falling) return "unordered";
  if (rising) return "ascending";
  return falling ? "descending" : "unknown";
}

function idsOf(records: readonly unknown[]): string {
  return records.map((r) => (isJsonObject(r) ? String(r.id) : "?")).join(",");
}

const PAGINATION_COPES =
  "pos-sync reads each day until the last page meta.totalPage announces, drops records it has " +
  "already seen and ends on an empty page, a 404 or a 400: pagination already copes";

interface OrderPages {
  first: ListPage;
  /** The last page (the first when there is only one). */
  last: ListPage;
  lastIndex: number;
  /** The page at index totalPage, one past the last. */
  past: ListPage;
}

/** A location without orders shows nothing of how lists page: each point stays unknown. */
function withoutOrders(evidence: string): Finding[] {
  const topics = [
    ["list-order", "Order of list results"],
    ["page-index", "The index parameter"],
    ["past-end", "A page past the last one"],
    ["next-page-token", "nextPageToken"],
  ] as const;
  return topics.map(([topic, title]) => ({
    topic,
    title,
    answer: "not determined: the key's location has no orders yet",
    certainty: "unknown",
    evidence: [evidence],
  }));
}

/** The pages that tell how the orders list pages; "empty" when there are no orders to page. */
async function readOrderPages(context: ProbeContext): Promise<OrderPages | "empty" | undefined> {
  const path = SHOWN_PATHS.orders;
  const first = await readPage(context, "orders: first page", path, {
    index: 0,
    size: SAMPLE_PAGE_SIZE,
  });
  if (!first.ok || !first.meta) {
    context.findings.push({
      topic: "list-order",
      title: "Orders list",
      answer: "not readable",
      certainty: "observed",
      evidence: [first.evidence],
      problem: `GET ${path} did not answer a list envelope: the sync cannot read orders`,
    });
    return undefined;
  }
  if (first.meta.totalCount === 0) {
    context.findings.push(...withoutOrders(first.evidence));
    return "empty";
  }
  addSample(context, "order", orderSchema, first.data);
  const lastIndex = Math.max(0, first.meta.totalPage - 1);
  const last =
    lastIndex === 0
      ? first
      : await readPage(context, "orders: last page", path, {
          index: lastIndex,
          size: SAMPLE_PAGE_SIZE,
        });
  addSample(context, "order", orderSchema, last.data);
  const past = await readPage(context, "orders: past the last page", path, {
    index: lastIndex + 1,
    size: SAMPLE_PAGE_SIZE,
  });
  return { first, last, lastIndex, past };
}

function orderFinding(orders: OrderPages, reports: ListPage | undefined): Finding {
  const orderRecords =
    orders.lastIndex === 0 ? orders.first.data : [...orders.first.data, ...orders.last.data];
  const byOrders = listDirection(orderRecords);
  const byReports = reports?.ok ? listDirection(reports.data) : "unknown";
  const known = [byOrders, byReports].filter((d) => d !== "unknown");
  const words: Record<Direction, string> = {
    ascending: "oldest first (ascending by createdAt)",
    descending: "newest first (descending by createdAt)",
    unordered: "not ordered by createdAt",
    unknown: "not determined",
  };
  const answer =
    known.length === 0
      ? words.unknown
      : new Set(known).size === 1
        ? words[known[0] as Direction]
        : `orders ${words[byOrders]}, reports ${words[byReports]}`;
  const evidence = [
    `${orderRecords.length} orders of pages 0${orders.lastIndex > 0 ? ` and ${orders.lastIndex}` : ""}: ${byOrders}`,
  ];
  if (reports?.ok) evidence.push(`${reports.data.length} reports of page 0: ${byReports}`);
  return {
    topic: "list-order",
    title: "Order of list results",
    answer,
    certainty: known.length === 0 ? "unknown" : "observed",
    evidence,
    sync: "pos-sync reads whole days page by page and does not depend on the order: pagination already copes",
  };
}

function indexFinding(orders: OrderPages): Finding {
  const evidence = [orders.first.evidence, orders.last.evidence];
  if (orders.lastIndex === 0) {
    return {
      topic: "page-index",
      title: "The index parameter",
      answer: "not determined: the orders fit on one page",
      certainty: "unknown",
      evidence: [orders.first.evidence],
    };
  }
  if (!orders.last.ok) {
    return {
      topic: "page-index",
      title: "The index parameter",
      answer: `not determined: the last page answered ${orders.last.status}`,
      certainty: "unknown",
      evidence,
    };
  }
  if (idsOf(orders.last.data) === idsOf(orders.first.data)) {
    return {
      topic: "page-index",
      title: "The index parameter",
      answer: "ignored: every page is the first one",
      certainty: "observed",
      evidence,
      problem:
        "pos-sync cannot page through this server: days with more than 100 records would stay incomplete (status and verify will show them)",
    };
  }
  return {
    topic: "page-index",
    title: "The index parameter",
    answer: "honoured (page 0 and the last page differ)",
    certainty: "observed",
    evidence,
  };
}

/** What the page past the last one held, and whether the walk copes with it. */
function pastEndAnswer(orders: OrderPages): { answer: string; copes: boolean } {
  const { past, last, first } = orders;
  if (past.status === 404) return { answer: "404 (not found)", copes: true };
  if (past.status === 400) return { answer: "400 (refused)", copes: true };
  if (!past.ok) return { answer: `answered ${past.status}`, copes: false };
  if (past.data.length === 0) return { answer: "an empty page", copes: true };
  // With several pages, a repeat of page 0 is the first page (an index ignored), not the last.
  if (orders.lastIndex > 0 && idsOf(past.data) === idsOf(first.data)) {
    return { answer: "the first page again", copes: true };
  }
  if (idsOf(past.data) === idsOf(last.data)) return { answer: "the last page again", copes: true };
  return { answer: `${past.data.length} records not on the last page`, copes: false };
}

function pastEndFinding(orders: OrderPages): Finding {
  const { answer, copes } = pastEndAnswer(orders);
  return {
    topic: "past-end",
    title: "A page past the last one",
    answer,
    certainty: "observed",
    evidence: [`the last page is index ${orders.lastIndex}`, orders.past.evidence],
    ...(copes ? { sync: PAGINATION_COPES } : {}),
  };
}

/** What a token decodes to, when it is not opaque: base64 of JSON, or a plain number. */
export function decodePageToken(token: string): string | undefined {
  if (/^\d+$/.test(token)) return `the number ${token}`;
  const text = Buffer.from(token, "base64url").toString("utf8");
  try {
    const value = JSON.parse(text) as unknown;
    if (isJsonObject(value)) return JSON.stringify(value);
  } catch {
    // opaque
  }
  return undefined;
}

function tokenFinding(orders: OrderPages): Finding {
  const token = orders.first.nextPageToken;
  const sync = "pos-sync pages by index and needs no token";
  if (typeof token !== "string" || token === "") {
    return {
      topic: "next-page-token",
      title: "nextPageToken",
      answer:
        orders.lastIndex > 0 ? "not sent, though more pages follow" : "not sent (one page only)",
      certainty: orders.lastIndex > 0 ? "observed" : "unknown",
      evidence: [orders.first.evidence],
      sync,
    };
  }
  const decoded = decodePageToken(token);
  const lastHasToken =
    typeof orders.last.nextPageToken === "string" && orders.last.nextPageToken !== "";
  const evidence = [
    `page 0 carries a token${decoded ? ` that decodes to ${decoded}` : " (opaque)"}`,
    orders.lastIndex > 0
      ? `the last page ${lastHasToken ? "carries one too" : "carries none"}`
      : "",
  ].filter((line) => line !== "");
  const namesNext =
    decoded !== undefined && /"(index|page|pageIndex)":\s*1\b|^the number 1$/.test(decoded);
  return {
    topic: "next-page-token",
    title: "nextPageToken",
    answer: namesNext
      ? `names the next page (${decoded}), the same as index + 1`
      : decoded !== undefined
        ? `encodes ${decoded}`
        : lastHasToken
          ? "an opaque token, sent on every page"
          : "an opaque token, sent while more pages follow",
    certainty: "inferred",
    evidence,
    sync,
  };
}

async function oversizeFinding(context: ProbeContext, totalCount: number): Promise<Finding> {
  const page = await readPage(context, `orders: size=${OVERSIZE}`, SHOWN_PATHS.orders, {
    index: 0,
    size: OVERSIZE,
  });
  const sync = "pos-sync asks for size=100, which the spec allows";
  const base = {
    topic: "oversize-page" as const,
    title: `size above 100 (size=${OVERSIZE})`,
    evidence: [page.evidence],
    sync,
  };
  if (page.status === 400 || page.status === 422)
    return { ...base, answer: `refused (${page.status})`, certainty: "observed" };
  if (!page.ok || !page.meta)
    return { ...base, answer: `answered ${page.status}`, certainty: "observed" };
  const served = page.data.length;
  if (page.meta.pageSize === 100 || (served === 100 && totalCount > 100)) {
    return { ...base, answer: "capped at 100, as the spec states", certainty: "observed" };
  }
  if (served === OVERSIZE) {
    return {
      ...base,
      answer: `accepted: ${served} records, not capped (the spec says capped at 100)`,
      certainty: "observed",
    };
  }
  return {
    ...base,
    answer: `not determined (pageSize ${page.meta.pageSize}, ${served} records)`,
    certainty: "unknown",
  };
}

/** The reports list's first page: a sample, its order, and a report id for report-by-id. */
async function readReportsPage(context: ProbeContext): Promise<ListPage> {
  const page = await readPage(context, "reports: first page", SHOWN_PATHS.reports, {
    index: 0,
    size: SAMPLE_PAGE_SIZE,
  });
  addSample(context, "report", reportSchema, page.data);
  const first = page.data.find((r) => isJsonObject(r) && typeof r.id === "string");
  if (isJsonObject(first)) context.reportId = String(first.id);
  if (!page.ok) {
    context.findings.push({
      topic: "list-order",
      title: "Reports list",
      answer: "not readable",
      certainty: "observed",
      evidence: [page.evidence],
      problem: `GET ${SHOWN_PATHS.reports} did not answer a list envelope: the sync cannot read reports`,
    });
  }
  return page;
}

export async function probeLists(context: ProbeContext): Promise<void> {
  const orders = await readOrderPages(context);
  if (orders === "empty") context.findings.push(await oversizeFinding(context, 0));
  if (typeof orders === "object") {
    addSample(context, "order", orderSchema, orders.past.data);
    // Pushed at once: a stop further on keeps what these pages showed.
    context.findings.push(
      orderFinding(orders, undefined),
      indexFinding(orders),
      pastEndFinding(orders),
      tokenFinding(orders),
    );
    context.findings.push(await oversizeFinding(context, orders.first.meta?.totalCount ?? 0));
  }
  const reports = await readReportsPage(context);
  if (typeof orders !== "object") return;
  const order = context.findings.findIndex((f) => f.topic === "list-order");
  context.findings[order] = orderFinding(orders, reports);
}
