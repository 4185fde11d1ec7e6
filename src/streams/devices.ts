/** The devices of a location: listed inside the location record (`?devices=true`), stored as a
 * snapshot; each keeps its place in the list as `position` and its own element as raw JSON. */
import { type Device, deviceSchema, type Location } from "../api/schemas.js";
import type { ValidRecord } from "../api/validate.js";
import { normalizeDevice } from "../db/normalize/catalog.js";
import { devices } from "../db/schema/index.js";
import type { SnapshotListDescription } from "./description.js";

export const DEVICES: SnapshotListDescription<Device> = {
  name: "devices",
  schema: deviceSchema,
  table: devices,
  childTables: [],
  toRows: (device, raw, context) => ({
    parent: normalizeDevice(device, raw, context.position, context),
    children: [],
  }),
};

/** The devices the location record lists, each with its own JSON as sent; undefined when the
 * API did not list devices at all. */
export function devicesOf(location: ValidRecord<Location>): ValidRecord<Device>[] | undefined {
  const rawDevices = (JSON.parse(location.raw) as { deviceList?: unknown[] }).deviceList;
  return location.record.deviceList?.map((device, position) => ({
    record: device,
    raw: JSON.stringify(rawDevices?.[position] ?? device),
  }));
}
