/** Day pages stored as the sync stores them: normalized on their location's clock, then loaded. */
import type { SyncDestination } from "../../src/db/destination.js";
import { type DayPage, headerOf, prepareRecords } from "../../src/db/normalize/page.js";
import type { PageCounts, Store } from "../../src/db/store.js";
import type { DayStreamTables } from "../../src/db/stream-tables.js";
import { PageNormalizer } from "../../src/sync/normalize-page.js";

/** Through a Store, in one transaction. */
export function writeDayPage(store: Store, stream: DayStreamTables, page: DayPage): PageCounts {
  const records = prepareRecords(stream, page, store.clockOf(page.locationId));
  return store.writePage(stream, headerOf(page), records);
}

/** Through a destination, as the sync's normalize stage hands it over. */
export function storeDayPage(
  destination: SyncDestination,
  stream: DayStreamTables,
  page: DayPage,
): Promise<PageCounts> {
  return new PageNormalizer(destination).store(stream, page);
}
