/** Finding the location a `--location` value names, for the commands that take one (changes,
 * verify). */

import { UsageError } from "../../errors.js";
import type { Reader } from "./reader.js";

/** The stores of reads this module reads. */
type LocationsReader = Pick<Reader, "locations">;

/** The location a --location value names (its id, or its name in any case). */
export async function locationNamed(destination: LocationsReader, wanted: string): Promise<string> {
  const known = await destination.locations.knownLocations();
  const lower = wanted.toLowerCase();
  const found =
    known.find((l) => l.id === wanted) ?? known.find((l) => l.name?.toLowerCase() === lower);
  if (found) return found.id;
  const names = known.map((l) => l.name ?? l.id);
  throw new UsageError(
    `--location ${JSON.stringify(wanted)} names no location in the database (known: ${names.length > 0 ? names.join(", ") : "none"})`,
  );
}
