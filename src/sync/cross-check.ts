/**
 * Reports and orders cross-check: an order that a stored report lists, although the orders
 * windows of the report's session were read completely, is fetched by id, so that the
 * reconciliation view can add up.
 */
import type { PosApiClient } from "../api/client.js";
import { missingReportOrders } from "../db/queries.js";
import { type SyncContext, timestamp } from "./context.js";
import { escalateOrDescribe } from "./failures.js";
import type { StreamStats } from "./stats.js";
import { settleAll } from "./tasks.js";

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
    stats.fetched++;
    if (!result.ok) {
      context.store.recordRejects("orders", [result.reject], {
        locationId,
        runId: context.runId,
        rejectedAt: timestamp(context),
        // So that the next run knows this order was fetched and rejected, even without its id.
        requestedId: orderId,
      });
      stats.rejected++;
      return;
    }
    // Outside a window, the day is the one the API lists the order under: the local calendar
    // date of its createdAt.
    const counts = context.store.writePage("orders", {
      locationId,
      day: result.valid.record.createdAt.slice(0, 10),
      records: [result.valid],
      rejects: [],
      runId: context.runId,
      syncedAt: timestamp(context),
    });
    stats.inserted += counts.inserted;
    stats.updated += counts.updated;
    stats.unchanged += counts.unchanged;
  } catch (error) {
    if (context.signal.aborted) return;
    stats.errors.push(`order ${orderId}: ${escalateOrDescribe(context, error)}`);
  }
}

export async function fetchMissingReportOrders(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
): Promise<void> {
  const missing = missingReportOrders(context.db, locationId, MAX_ORDERS_BY_ID);
  if (missing.length === 0) return;
  const stats = context.stats.stream(client.keyFingerprint, "orders");
  context.logger.info(
    { locationId, orders: missing.length },
    "fetching orders that stored reports list but no window returned",
  );
  await settleAll(
    missing,
    context.windowLimit,
    (orderId) => fetchOne(context, client, locationId, orderId, stats),
    () => context.signal.aborted,
  );
}
