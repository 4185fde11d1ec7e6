/** Day pages stored as the sync stores them: normalized on their location's clock, then loaded. */
import type { Order } from "../../src/api/schemas.js";
import type { PageCounts, SyncDestination } from "../../src/db/destination.js";
import type { DayPage } from "../../src/db/normalize/page.js";
import type { DayStreamTables } from "../../src/db/normalize/stream-tables.js";
import { ORDERS } from "../../src/streams/index.js";
import { PageNormalizer } from "../../src/sync/normalize-page.js";

/** Through a destination, as the sync's normalize stage hands it over. */
export function storeDayPage(
  destination: SyncDestination,
  stream: DayStreamTables,
  page: DayPage,
): Promise<PageCounts> {
  return new PageNormalizer(destination).store(stream, page);
}

/** Orders of one location's day stored as one page, each with its JSON as the API would send it. */
export function storeOrdersPage(
  destination: SyncDestination,
  locationId: string,
  day: string,
  orders: readonly Order[],
): Promise<PageCounts> {
  return storeDayPage(destination, ORDERS, {
    locationId,
    day,
    records: orders.map((order) => ({ record: order, raw: JSON.stringify(order) })),
    rejects: [],
    runId: null,
    syncedAt: new Date().toISOString(),
  });
}
