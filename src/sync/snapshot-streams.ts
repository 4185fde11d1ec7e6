/** The location (with its devices) and the catalog: whole lists, stored as snapshots. */
import pLimit from "p-limit";
import type { PosApiClient } from "../api/client.js";
import { ApiEndpointNotFoundError } from "../api/errors.js";
import type { Location } from "../api/schemas.js";
import type { ValidRecord } from "../api/validate.js";
import { today } from "../clock/today.js";
import { EXIT, PosSyncError } from "../errors.js";
import { keyFingerprint } from "../secrets.js";
import { type CatalogListDescription, DEVICES, devicesOf, readList } from "../streams/index.js";
import { type SyncContext, timestamp } from "./context.js";
import { escalateOrDescribe } from "./failures.js";
import { addCounts } from "./stats.js";
import { runAll } from "./tasks.js";

/** The API answered for the location with a record that breaks the spec: nothing of this
 * location can be synced until the API sends a valid one (the record is in rejected_records). */
export class LocationUnavailableError extends PosSyncError {
  readonly exitCode = EXIT.incomplete;
  readonly retryable = true;
}

/** Reads the location behind the key: every stream needs its id. Stores it (with its devices)
 * when the location stream is selected, or when it is not stored yet: every table joins on
 * `locations`, whichever streams a run reads. */
export async function syncLocationRecord(
  context: SyncContext,
  client: PosApiClient,
  apiKey: string,
): Promise<ValidRecord<Location>> {
  const { destination } = context;
  const result = await client.location();
  if (!result.ok) {
    await destination.recordLocationReject(result.reject, {
      runId: context.runId,
      rejectedAt: timestamp(context),
    });
    throw new LocationUnavailableError(
      `the location record breaks the spec: ${result.reject.reason}`,
    );
  }
  const location = result.valid;
  const locationId = location.record.id;
  if (context.streams.has("location") || !(await destination.isLocationStored(locationId))) {
    const stats = context.stats.stream(client.keyFingerprint, "location");
    const devices = devicesOf(location);
    const counts = await destination.writeLocation(
      location,
      { syncedAt: timestamp(context), apiKeyFingerprint: keyFingerprint(apiKey) },
      devices ? { list: DEVICES, records: devices } : undefined,
    );
    addCounts(stats, { [counts.location]: 1 });
    if (counts.devices) addCounts(stats, counts.devices);
    stats.windows.complete++;
    await destination.recordWindow(
      {
        locationId,
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

/** Reads the catalog lists. A list served nowhere (404 on an unshown path) is reported as
 * unavailable; another failure fails that list only. */
export async function syncCatalog(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
): Promise<void> {
  const stats = context.stats.stream(client.keyFingerprint, "catalog");
  const failures: string[] = [];
  const syncList = async (list: CatalogListDescription) => {
    try {
      const validated = await readList(list, client);
      const counts = await context.destination.writeList(list, validated, {
        locationId,
        syncedAt: timestamp(context),
        runId: context.runId,
      });
      addCounts(stats, counts);
    } catch (error) {
      if (error instanceof ApiEndpointNotFoundError) {
        stats.unavailable.push(list.name);
        context.logger.warn({ locationId, resource: list.name }, error.message);
        return;
      }
      if (context.signal.aborted) return;
      failures.push(`${list.name}: ${escalateOrDescribe(error)}`);
    }
  };
  const lists = context.catalogLists;
  await runAll(lists, pLimit(lists.length), syncList, () => context.signal.aborted);
  if (context.signal.aborted) return;
  stats.errors.push(...failures);
  if (failures.length === 0) stats.windows.complete++;
  else stats.windows.failed++;
  await context.destination.recordWindow(
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
