/**
 * The command line runs on the real clock, and a location's today is its own: an hour before
 * UTC midnight a location at UTC+1 already has tomorrow, five hours after it one at UTC-5 still
 * has yesterday. Tests that run the CLI derive the days they expect from here, so that they pass
 * at any hour.
 */
import { eachDay } from "../../src/clock/days.js";
import { today } from "../../src/clock/today.js";
import type { Simulator } from "../../src/simulator/server.js";

/** Today at a simulated location, now. */
export function localToday(simulator: Simulator, locationIndex = 0): string {
  const location = simulator.dataset.locations[locationIndex];
  if (!location) throw new Error(`the simulator has no location ${locationIndex}`);
  return today(new Date(), location.offsetMinutes);
}

/** The day windows a first run reads for a location: the data's first day through its today. */
export function firstRunDays(simulator: Simulator, locationIndex = 0): string[] {
  return eachDay(simulator.dataset.firstDay, localToday(simulator, locationIndex));
}
