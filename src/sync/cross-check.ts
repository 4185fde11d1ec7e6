/**
 * Reports and orders cross-check: an order that a stored report lists, although the orders
 * windows of the report's session were read completely, is fetched by id, so that the
 * reconciliation view can add up.
 */
import type { PosApiClient } from "../api/client.js";
import { rejectKey } from "../api/validate.js";
import { ORDERS } from "../streams/index.js";
import { type SyncContext, timestamp } from "./context.js";
import { escalateOrDescribe } from "./failures.js";
import { addCounts, type StreamStats } from "./stats.js";
import { runAll } from "./tasks.js";

/** At most this many orders fetched one by one per location and run. */
export const MAX_ORDERS_BY_ID = 500;

async function fetchOne(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
  orderId: string,
  stats: StreamStats,
): Promise<void> {
  try {
    const result = await client.order(orderId);
    if (result === null) {
      context.logger.warn(
        { locationId, orderId },
        "a stored report lists an order the API does not have",
      );
      return;
    }
    if (!result.ok) {
      // A record without a usable id that a window of this run set aside already, which the
      // report names by the id it should have had: fetched and counted once.
      const counted = await context.destination.rejectedInRun(
        locationId,
        ORDERS.name,
        rejectKey(result.reject),
        context.runId,
      );
      await context.destination.recordRejects(ORDERS.name, [result.reject], {
        locationId,
        runId: context.runId,
        rejectedAt: timestamp(context),
        // So that the next run knows this order was fetched and rejected, even without its id.
        requestedId: orderId,
      });
      if (!counted) addCounts(stats, { rejected: 1 });
      return;
    }
    // Outside a window, the day is the one the API lists the order under: the local calendar
    // date of its createdAt.
    const counts = await context.pages.store(ORDERS, {
      locationId,
      day: result.valid.record.createdAt.slice(0, 10),
      records: [result.valid],
      rejects: [],
      runId: context.runId,
      syncedAt: timestamp(context),
    });
    addCounts(stats, counts);
  } catch (error) {
    if (context.signal.aborted) return;
    stats.errors.push(`order ${orderId}: ${escalateOrDescribe(error)}`);
  }
}

export async function fetchMissingReportOrders(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
): Promise<void> {
  if (!context.streams.has(ORDERS.name)) return;
  const missing = await context.destination.missingReportOrders(locationId, MAX_ORDERS_BY_ID);
  if (missing.length === 0) return;
  const stats = context.stats.stream(client.keyFingerprint, ORDERS.name);
  context.logger.info(
    { locationId, orders: missing.length },
    "fetching orders that stored reports list but no window returned",
  );
  await runAll(
    missing,
    context.windowLimit,
    (orderId) => fetchOne(context, client, locationId, orderId, stats),
    () => context.signal.aborted,
  );
}
