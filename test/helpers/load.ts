/**
 * Pushes a simulator's data through the real path (client → validation → store) day by day,
 * without the sync engine: the storage tests need stored data, not scheduling.
 */
import { CATALOG_RESOURCES, type PosApiClient } from "../../src/api/client.js";
import { eachDay } from "../../src/dates.js";
import type { PageCounts, Store } from "../../src/db/store.js";
import { keyFingerprint } from "../../src/secrets.js";

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
  store: Store,
  apiKey: string,
  days: { since: string; until: string },
  syncedAt = new Date().toISOString(),
): Promise<LoadTotals & { locationId: string }> {
  const location = await client.location();
  if (!location.ok) throw new Error(`location rejected: ${location.reject.reason}`);
  const locationId = location.valid.record.id;
  store.writeLocation(location.valid, { syncedAt, apiKeyFingerprint: keyFingerprint(apiKey) });
  for (const resource of CATALOG_RESOURCES) {
    store.writeCatalog(resource, await client.catalog(resource), {
      locationId,
      syncedAt,
      runId: null,
    });
  }
  const totals: LoadTotals = { orders: zero(), reports: zero() };
  for (const day of eachDay(days.since, days.until)) {
    for await (const page of client.reports({ since: day, until: day })) {
      add(
        totals.reports,
        store.writeReports({
          locationId,
          day,
          records: page.records,
          rejects: page.rejects,
          runId: null,
          syncedAt,
        }),
      );
    }
    for await (const page of client.orders({ since: day, until: day })) {
      add(
        totals.orders,
        store.writeOrders({
          locationId,
          day,
          records: page.records,
          rejects: page.rejects,
          runId: null,
          syncedAt,
        }),
      );
    }
  }
  return { ...totals, locationId };
}
