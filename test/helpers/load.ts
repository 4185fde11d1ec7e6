/**
 * Pushes a simulator's data through the real path (client → validation → destination) day by day,
 * without the sync engine: the storage tests need stored data, not scheduling.
 */
import type { PosApiClient } from "../../src/api/client.js";
import { eachDay } from "../../src/clock/days.js";
import type { PageCounts } from "../../src/db/destination.js";
import type { SqliteDestination } from "../../src/db/sqlite/destination.js";
import { keyFingerprint } from "../../src/secrets.js";
import {
  CATALOG_LISTS,
  DEVICES,
  devicesOf,
  ORDERS,
  REPORTS,
  readDays,
  readList,
} from "../../src/streams/index.js";
import { storeDayPage } from "./pages.js";

export interface LoadTotals {
  orders: PageCounts;
  reports: PageCounts;
}

function add(total: PageCounts, counts: PageCounts): void {
  total.inserted += counts.inserted;
  total.updated += counts.updated;
  total.unchanged += counts.unchanged;
  total.rejected += counts.rejected;
  total.rowsWritten += counts.rowsWritten;
}

function zero(): PageCounts {
  return { inserted: 0, updated: 0, unchanged: 0, rejected: 0, rowsWritten: 0 };
}

export async function loadLocation(
  client: PosApiClient,
  store: SqliteDestination,
  apiKey: string,
  days: { since: string; until: string },
  syncedAt = new Date().toISOString(),
): Promise<LoadTotals & { locationId: string }> {
  const location = await client.location();
  if (!location.ok) throw new Error(`location rejected: ${location.reject.reason}`);
  const locationId = location.valid.record.id;
  const devices = devicesOf(location.valid);
  await store.writeLocation(
    location.valid,
    { syncedAt, apiKeyFingerprint: keyFingerprint(apiKey) },
    devices ? { list: DEVICES, records: devices } : undefined,
  );
  for (const list of CATALOG_LISTS) {
    await store.writeList(list, await readList(list, client), {
      locationId,
      syncedAt,
      runId: null,
    });
  }
  const totals: LoadTotals = { orders: zero(), reports: zero() };
  for (const day of eachDay(days.since, days.until)) {
    for await (const page of readDays(REPORTS, client, { since: day, until: day })) {
      add(
        totals.reports,
        await storeDayPage(store, REPORTS, {
          locationId,
          day,
          records: page.records,
          rejects: page.rejects,
          runId: null,
          syncedAt,
        }),
      );
    }
    for await (const page of readDays(ORDERS, client, { since: day, until: day })) {
      add(
        totals.orders,
        await storeDayPage(store, ORDERS, {
          locationId,
          day,
          records: page.records,
          rejects: page.rejects,
          runId: null,
          syncedAt,
        }),
      );
    }
    // As the engine does at the end of each day window.
    await store.settleSummaries(locationId);
  }
  return { ...totals, locationId };
}
