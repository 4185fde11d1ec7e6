/** A location's wall clock: which hour a timestamp of the API shows there. */
import { describe, expect, it } from "vitest";
import { LocalClock } from "../src/clock/local-clock.js";
import { canonicalTimeZone } from "../src/clock/zones.js";

const paris = new LocalClock("Europe/Paris");

describe("the hour of a timestamp on a location's clock", () => {
  it("keeps the hour of a timestamp sent in the location's offset, whatever the setting", () => {
    expect(paris.hourOf("2026-11-21T23:59:58.120+01:00")).toBe(23);
    expect(new LocalClock("Asia/Kolkata").hourOf("2026-11-21T07:05:00-05:00")).toBe(7);
    expect(LocalClock.AS_SENT.hourOf("2026-11-21T08:00:00+05:30")).toBe(8);
  });

  it("converts a UTC timestamp into the time zone, summer time included", () => {
    expect(paris.hourOf("2026-01-15T21:30:00.000Z")).toBe(22);
    expect(paris.hourOf("2026-07-01T21:30:00.000Z")).toBe(23);
    expect(paris.hourOf("2026-07-01T21:30:00+00:00")).toBe(23);
    expect(new LocalClock("America/New_York").hourOf("2026-11-21T03:30:00Z")).toBe(22);
    expect(new LocalClock("Asia/Kolkata").hourOf("2026-11-21T20:00:00Z")).toBe(1);
  });

  it("follows the switch to summer time to the minute", () => {
    // Paris moves from +01:00 to +02:00 at 01:00 UTC on 29 March 2026.
    expect(paris.hourOf("2026-03-29T00:59:59Z")).toBe(1);
    expect(paris.hourOf("2026-03-29T01:00:00Z")).toBe(3);
    expect(paris.hourOf("2026-10-25T00:59:59Z")).toBe(2);
    expect(paris.hourOf("2026-10-25T01:00:00Z")).toBe(2);
    expect(paris.hourOf("2026-10-25T02:00:00Z")).toBe(3);
  });

  it("takes UTC's hour when no time zone is set, and a timestamp without offset as written", () => {
    expect(LocalClock.AS_SENT.hourOf("2026-07-01T21:30:00.000Z")).toBe(21);
    expect(paris.hourOf("2026-07-01T21:30:00")).toBe(21);
  });

  it("gives no hour for what is not a date-time", () => {
    expect(paris.hourOf("yesterday evening")).toBeNull();
    expect(paris.hourOf("2026-07-01T25:30:00Z")).toBeNull();
    expect(LocalClock.AS_SENT.hourOf("")).toBeNull();
  });
});

describe("how far a location's clock is ahead of UTC at a timestamp", () => {
  it("is the offset it was written with, unless written in UTC where a zone is set", () => {
    expect(paris.offsetOf("2026-11-21T23:59:58.120+01:00")).toBe(60);
    expect(paris.offsetOf("2026-11-21T07:05:00-05:00")).toBe(-300);
    expect(LocalClock.AS_SENT.offsetOf("2026-11-21T08:00:00+05:30")).toBe(330);
    expect(LocalClock.AS_SENT.offsetOf("2026-07-01T21:30:00.000Z")).toBe(0);
    expect(paris.offsetOf("2026-07-01T21:30:00+00:00")).toBe(120);
  });

  it("follows the zone across a clock change, to the minute", () => {
    expect(paris.offsetOf("2026-03-29T00:59:59Z")).toBe(60);
    expect(paris.offsetOf("2026-03-29T01:00:00Z")).toBe(120);
    expect(paris.offsetOf("2026-10-25T00:59:59.999Z")).toBe(120);
    expect(paris.offsetOf("2026-10-25T01:00:00Z")).toBe(60);
  });

  it("is unknown for what is not a date-time with an offset", () => {
    expect(paris.offsetOf("2026-07-01T21:30:00")).toBeNull();
    expect(paris.offsetOf("yesterday evening Z")).toBeNull();
    expect(paris.offsetOf("2026-07-01T25:30:00Z")).toBeNull();
  });
});

describe("a time zone's offset", () => {
  it("is the zone's at the instant asked, and none without a zone", () => {
    expect(paris.offsetMinutesAt(Date.parse("2026-01-15T12:00:00Z"))).toBe(60);
    expect(paris.offsetMinutesAt(Date.parse("2026-07-01T12:00:00Z"))).toBe(120);
    expect(new LocalClock("Asia/Kolkata").offsetMinutesAt(0)).toBe(330);
    expect(
      new LocalClock("America/New_York").offsetMinutesAt(Date.parse("2026-11-21T12:00:00Z")),
    ).toBe(-300);
    expect(LocalClock.AS_SENT.offsetMinutesAt(0)).toBeUndefined();
  });
});

describe("time zone names", () => {
  it("are taken in their canonical spelling, and refused when unknown", () => {
    expect(canonicalTimeZone("europe/paris")).toBe("Europe/Paris");
    expect(canonicalTimeZone(" UTC ")).toBe("UTC");
    expect(canonicalTimeZone("Etc/GMT-1")).toBe("Etc/GMT-1");
    // Runtimes disagree on which alias is canonical: the name given is kept.
    expect(canonicalTimeZone("Asia/Kolkata")).toBe("Asia/Kolkata");
    expect(canonicalTimeZone("Mars/Olympus")).toBeUndefined();
    expect(canonicalTimeZone("")).toBeUndefined();
  });
});
