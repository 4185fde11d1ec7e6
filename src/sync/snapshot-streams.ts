/** The location (with its devices) and the catalog: whole lists, stored as snapshots. */
import pLimit from "p-limit";
import { CATALOG_RESOURCES, type CatalogResource, type PosApiClient } from "../api/client.js";
import { ApiEndpointNotFoundError } from "../api/errors.js";
import type { Location } from "../api/schemas.js";
import type { ValidRecord } from "../api/validate.js";
import { today } from "../dates.js";
import { keyFingerprint } from "../secrets.js";
import { type SyncContext, timestamp } from "./context.js";
import { escalateOrDescribe } from "./failures.js";
import { settleAll } from "./tasks.js";

export class LocationUnavailableError extends Error {}

/** Reads the location behind the key: every stream needs its id. Stores it (with its devices)
 * when the location stream is selected, or when it is not stored yet: every table joins on
 * `locations`, whichever streams a run reads. */
export async function syncLocationRecord(
  context: SyncContext,
  client: PosApiClient,
  apiKey: string,
): Promise<ValidRecord<Location>> {
  const result = await client.location();
  if (!result.ok) {
    context.store.recordLocationReject(result.reject, {
      runId: context.runId,
      rejectedAt: timestamp(context),
    });
    throw new LocationUnavailableError(
      `the location record breaks the spec: ${result.reject.reason}`,
    );
  }
  const location = result.valid;
  if (context.streams.has("location") || !context.store.isLocationStored(location.record.id)) {
    const stats = context.stats.stream(client.keyFingerprint, "location");
    const counts = context.store.writeLocation(location, {
      syncedAt: timestamp(context),
      apiKeyFingerprint: keyFingerprint(apiKey),
    });
    const devices = counts.devices;
    stats.fetched += 1 + (location.record.deviceList?.length ?? 0);
    stats[counts.location]++;
    stats.inserted += devices?.inserted ?? 0;
    stats.updated += (devices?.updated ?? 0) + (devices?.restored ?? 0);
    stats.unchanged += devices?.unchanged ?? 0;
    stats.deleted += devices?.deleted ?? 0;
    stats.windows.complete++;
    context.checkpoints.record(
      {
        locationId: location.record.id,
        stream: "location",
        day: today(context.now()),
        status: "complete",
        apiTotalCount: null,
        storedCount: null,
        lastError: null,
        runId: context.runId,
      },
      timestamp(context),
    );
  }
  return location;
}

/** Reads the five catalog lists. A list served nowhere (404 on an unshown path) is reported as
 * unavailable; another failure fails that list only. */
export async function syncCatalog(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
): Promise<void> {
  const stats = context.stats.stream(client.keyFingerprint, "catalog");
  const failures: string[] = [];
  const syncResource = async (resource: CatalogResource) => {
    try {
      const list = await client.catalog(resource);
      const counts = context.store.writeCatalog(resource, list, {
        locationId,
        syncedAt: timestamp(context),
        runId: context.runId,
      });
      stats.fetched += list.records.length + list.rejects.length;
      stats.inserted += counts.inserted;
      stats.updated += counts.updated + counts.restored;
      stats.unchanged += counts.unchanged;
      stats.deleted += counts.deleted;
      stats.rejected += counts.rejected;
    } catch (error) {
      if (error instanceof ApiEndpointNotFoundError) {
        stats.unavailable.push(resource);
        context.logger.warn({ locationId, resource }, error.message);
        return;
      }
      if (context.signal.aborted) return;
      failures.push(`${resource}: ${escalateOrDescribe(context, error)}`);
    }
  };
  await settleAll(
    CATALOG_RESOURCES,
    pLimit(CATALOG_RESOURCES.length),
    syncResource,
    () => context.signal.aborted,
  );
  if (context.signal.aborted) return;
  stats.errors.push(...failures);
  if (failures.length === 0) stats.windows.complete++;
  else stats.windows.failed++;
  context.checkpoints.record(
    {
      locationId,
      stream: "catalog",
      day: today(context.now()),
      status: failures.length === 0 ? "complete" : "failed",
      apiTotalCount: null,
      storedCount: null,
      lastError: failures.length === 0 ? null : failures.join("; "),
      runId: context.runId,
    },
    timestamp(context),
  );
}
