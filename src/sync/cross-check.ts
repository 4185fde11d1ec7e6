/**
 * Reports and orders cross-check: an order that a stored report lists but that no orders window
 * returned is fetched by id, so that the reconciliation view can add up.
 */
import type { PosApiClient } from "../api/client.js";
import { ApiKeyRejectedError } from "../api/errors.js";
import { DatabaseError, databaseError, isSqliteError } from "../db/errors.js";
import { missingReportOrders } from "../db/queries.js";
import { type SyncContext, timestamp } from "./context.js";

/** At most this many orders fetched one by one per location and run. */
export const MAX_ORDERS_BY_ID = 500;

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
  await Promise.all(
    missing.map((orderId) =>
      context.windowLimit(async () => {
        if (context.signal.aborted) return;
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
            });
            stats.rejected++;
            return;
          }
          // Outside a window, the day is the one the API lists the order under: the local
          // calendar date of its createdAt.
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
          if (error instanceof ApiKeyRejectedError || error instanceof DatabaseError) throw error;
          if (isSqliteError(error))
            throw databaseError(error, context.db.path, "write to the database");
          stats.errors.push(
            `order ${orderId}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }),
    ),
  );
}
