/** Day pages stored as the sync stores them: normalized on their location's clock, then loaded. */
import type { PageCounts, SyncDestination } from "../../src/db/destination.js";
import type { DayPage } from "../../src/db/normalize/page.js";
import type { DayStreamTables } from "../../src/db/stream-tables.js";
import { PageNormalizer } from "../../src/sync/normalize-page.js";

/** Through a destination, as the sync's normalize stage hands it over. */
export function storeDayPage(
  destination: SyncDestination,
  stream: DayStreamTables,
  page: DayPage,
): Promise<PageCounts> {
  return new PageNormalizer(destination).store(stream, page);
}
