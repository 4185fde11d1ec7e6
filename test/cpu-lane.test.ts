/** One page's CPU work at a time on the reading thread, in slices that let replies in. */
import { describe, expect, it } from "vitest";
import { CpuLane, PAGE_STEP } from "../src/cpu-lane.js";

/** A reading thread's lane, as a sync makes one. */
const lane = new CpuLane();

/** A turn that records when it starts and ends, and yields to the event loop in between. */
function turn(name: string, step: (typeof PAGE_STEP)[keyof typeof PAGE_STEP], log: string[]) {
  return lane.turn(step, async () => {
    log.push(`${name} starts`);
    await lane.nextSlice();
    await lane.nextSlice();
    log.push(`${name} ends`);
  });
}

/** Takes the lane (once it is free) and holds it until released. */
async function holdLane(step: (typeof PAGE_STEP)[keyof typeof PAGE_STEP]) {
  let release = () => {};
  let held = () => {};
  const taken = new Promise<void>((resolve) => (held = resolve));
  const done = lane.turn(step, () => {
    held();
    return new Promise<void>((resolve) => (release = resolve));
  });
  await taken;
  return { release: () => release(), done };
}

describe("the CPU lane", () => {
  it("works on one page at a time, even while each lets the event loop run", async () => {
    const log: string[] = [];
    await Promise.all([
      turn("a", PAGE_STEP.validate, log),
      turn("b", PAGE_STEP.validate, log),
      turn("c", PAGE_STEP.validate, log),
    ]);
    expect(log).toEqual(["a starts", "a ends", "b starts", "b ends", "c starts", "c ends"]);
  });

  it("lets a page further along go before pages that have yet to start", async () => {
    const log: string[] = [];
    const holder = await holdLane(PAGE_STEP.rows);
    const waiting = [
      turn("parse", PAGE_STEP.parse, log),
      turn("validate", PAGE_STEP.validate, log),
      turn("rows", PAGE_STEP.rows, log),
    ];
    holder.release();
    await Promise.all([holder.done, ...waiting]);
    expect(log.filter((line) => line.endsWith("starts"))).toEqual([
      "rows starts",
      "validate starts",
      "parse starts",
    ]);
  });

  it("keeps the lane for the page that leaves it, when it asks for its next step at once", async () => {
    const log: string[] = [];
    const holder = await holdLane(PAGE_STEP.parse);
    const first = holder.done.then(() => turn("first page, next step", PAGE_STEP.validate, log));
    const second = turn("second page", PAGE_STEP.parse, log);
    holder.release();
    await Promise.all([first, second]);
    expect(log[0]).toBe("first page, next step starts");
  });
});
