/** What each operation answers, given the caller's location. HTTP plumbing lives in server.ts. */
import type { Dataset } from "./dataset.js";
import { listEnvelope } from "./envelope.js";
import type { FaultController } from "./faults.js";
import type { SimLocation } from "./location.js";
import { type MalformableKind, malform } from "./malformed.js";
import type { Route } from "./operations.js";
import {
  InvalidParameter,
  isUuid,
  type ListParameters,
  parseDevicesParameter,
  parseListParameters,
} from "./query.js";
import type { RequestStats } from "./stats.js";

export interface HandlerContext {
  dataset: Dataset;
  faults: FaultController;
  stats: RequestStats;
  location: SimLocation;
  url: URL;
  route: Route;
}

export interface HandlerResult {
  status: number;
  body: unknown;
}

export function errorBody(
  error: string,
  message: string,
  parameter?: string,
): Record<string, string> {
  return parameter === undefined ? { error, message } : { error, message, parameter };
}

function ok(body: unknown): HandlerResult {
  return { status: 200, body };
}

function notFound(what: string): HandlerResult {
  return { status: 404, body: errorBody("not_found", `${what} not found`) };
}

/** Serves records, some malformed when the fault settings ask for it. */
function present<T extends { id: string }>(
  context: HandlerContext,
  records: T[],
  kind: MalformableKind,
): unknown[] {
  return records.map((record) => {
    if (!context.faults.isMalformed(record.id)) return record;
    context.stats.fault("malformed");
    return malform(record, kind);
  });
}

function coversToday(params: ListParameters, today: string): boolean {
  return (
    (params.since === undefined || params.since <= today) &&
    (params.until === undefined || params.until >= today)
  );
}

/** A list's records at one page index, and the number of records the whole list has. */
type ListAt<T> = (index: number) => { records: T[]; totalCount: number };

function listPage<T extends { id: string }>(
  context: HandlerContext,
  params: ListParameters,
  listAt: ListAt<T>,
  kind: MalformableKind,
): HandlerResult {
  const settings = context.faults.current;
  let index = settings.ignoresIndex ? 0 : params.index;
  let result = listAt(index);
  const pastEnd = index > 0 && index * params.size >= result.totalCount;
  if (pastEnd && settings.pastEnd === "not-found") {
    return { status: 404, body: errorBody("not_found", `page ${index} does not exist`) };
  }
  if (pastEnd && settings.pastEnd === "bad-request") {
    return {
      status: 400,
      body: errorBody("invalid_parameter", `index ${index} is past the last page`, "index"),
    };
  }
  if (pastEnd && settings.pastEnd === "last-page") {
    index = Math.max(0, Math.ceil(result.totalCount / params.size) - 1);
    result = listAt(index);
  }
  const reportedTotalCount = Math.max(0, result.totalCount + settings.totalCountSkew);
  return ok(
    listEnvelope(context.url, present(context, result.records, kind), {
      index,
      size: params.size,
      totalCount: result.totalCount,
      reportedTotalCount,
      tokenForm: settings.pageToken,
    }),
  );
}

function listOrders(context: HandlerContext): HandlerResult {
  const { dataset, faults, location } = context;
  const params = parseListParameters(context.url.searchParams, true, faults.current.oversizePage);
  if (coversToday(params, dataset.today)) {
    const live = faults.takeLiveOrders();
    if (live > 0) dataset.addLiveOrders(location, live);
  }
  const request = { ...params, descending: faults.current.descending };
  const { duplicatesAcrossPages, changesBetweenPages } = faults.current;
  const listAt = (index: number) => {
    const result = dataset.listOrders(location, { ...request, index });
    if (index > 0 && result.records.length > 0 && (duplicatesAcrossPages || changesBetweenPages)) {
      const previous = dataset.listOrders(location, { ...request, index: index - 1 }).records;
      const last = previous.at(-1);
      const first = previous[0];
      if (duplicatesAcrossPages && last) result.records.push(last);
      const changed =
        changesBetweenPages && first ? dataset.updateOrder(location, first.id) : undefined;
      if (changed) result.records.push(changed);
    }
    return result;
  };
  return listPage(context, params, listAt, "order");
}

function listReports(context: HandlerContext): HandlerResult {
  const { faults } = context;
  const params = parseListParameters(context.url.searchParams, false, faults.current.oversizePage);
  const request = { ...params, descending: faults.current.descending };
  const listAt = (index: number) =>
    context.dataset.listReports(context.location, { ...request, index });
  return listPage(context, params, listAt, "report");
}

function requireUuid(id: string | undefined): string {
  if (id === undefined || !isUuid(id))
    throw new InvalidParameter("id", `id must be a uuid, got ${JSON.stringify(id)}`);
  return id;
}

function getOrder(context: HandlerContext): HandlerResult {
  const order = context.dataset.order(context.location, requireUuid(context.route.id));
  if (!order) return notFound("order");
  const [served] = present(context, [order], "order");
  return ok(served);
}

function getReport(context: HandlerContext): HandlerResult {
  const report = context.dataset.report(context.location, requireUuid(context.route.id));
  if (!report) return notFound("report");
  const [served] = present(context, [report], "report");
  return ok(served);
}

function getLocation(context: HandlerContext): HandlerResult {
  const withDevices = parseDevicesParameter(context.url.searchParams);
  const { location } = context.location;
  return ok(
    withDevices ? { ...location, deviceList: context.dataset.devices(context.location) } : location,
  );
}

function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 120) return `${seconds} seconds`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} minutes`;
  return `${Math.floor(minutes / 60)} hours`;
}

export function health(startedAtMs: number, baseUrl: string): HandlerResult {
  return ok({
    status: "ok",
    uptime: humanDuration(Date.now() - startedAtMs),
    docURL: `${baseUrl}/docs`,
    apiVersions: "v1",
  });
}

export type AuthenticatedOperation = Exclude<Route["operation"], "health">;

const HANDLERS: Record<AuthenticatedOperation, (context: HandlerContext) => HandlerResult> = {
  listOrders,
  getOrder,
  listReports,
  getReport,
  getLocation,
  listProducts: (c) => ok(present(c, c.dataset.products(c.location), "catalog")),
  listModifiers: (c) => ok(present(c, c.dataset.modifiers(c.location), "catalog")),
  listCategories: (c) => ok(present(c, c.dataset.categories(c.location), "catalog")),
  listPaymentMethods: (c) => ok(present(c, c.dataset.paymentMethods(c.location), "catalog")),
  listTaxes: (c) => ok(present(c, c.dataset.taxes(c.location), "catalog")),
};

export function handle(
  context: HandlerContext & { route: { operation: AuthenticatedOperation } },
): HandlerResult {
  try {
    return HANDLERS[context.route.operation](context);
  } catch (error) {
    if (error instanceof InvalidParameter) {
      return { status: 400, body: errorBody("invalid_parameter", error.message, error.parameter) };
    }
    throw error;
  }
}
