/**
 * The outbox's stages apart from any I/O: when a lock has expired (claim), what becomes of a
 * message after a failed attempt (settle: tried again after the backoff, or failed for good),
 * and which record each outcome writes.
 */
import { describe, expect, it } from "vitest";
import type { DeliveryStore } from "../src/db/deliveries/deliveries.js";
import { retryDelayMs } from "../src/messages/outbox/backoff.js";
import { LOCK_MS, lockExpiredBefore } from "../src/messages/outbox/claim.js";
import { afterFailure, type Outcome, settle } from "../src/messages/outbox/settle.js";
import { DeliveryError } from "../src/messages/transports/transport.js";

const now = new Date("2026-11-29T06:00:00.000Z");
const MINUTE = 60_000;

describe("the claim's lock", () => {
  it.each([
    ["just taken", 0, true],
    ["taken a minute ago", MINUTE, true],
    ["taken as long ago as a sending may last", LOCK_MS, true],
    ["taken a second longer ago", LOCK_MS + 1_000, false],
    ["taken an hour ago", 60 * MINUTE, false],
  ])("%s: holds = %s", (_, age, holds) => {
    const lockedAt = new Date(now.getTime() - age);
    // The claim's SQL takes a message whose lock was taken before lockExpiredBefore(now).
    expect(lockedAt < lockExpiredBefore(now)).toBe(!holds);
  });

  it("outlasts the longest a sending may last: 5 minutes, and a few steps' timeouts", () => {
    expect(LOCK_MS).toBe(6 * MINUTE);
  });
});

describe("the backoff", () => {
  it.each([
    [0, 1],
    [1, 1],
    [2, 2],
    [3, 4],
    [6, 32],
    [7, 60],
    [50, 60],
  ])("after attempt %i waits %i min", (attempts, minutes) => {
    expect(retryDelayMs(attempts)).toBe(minutes * MINUTE);
  });
});

describe("after a failed attempt", () => {
  const refused = new DeliveryError("e-mail", false, "mail.example.com:587", "refused (550)");
  const busy = new DeliveryError("webhook", true, "https://hooks.example.com/…", "answered 503");
  it.each([
    ["a refusal for good ends it, whatever the attempt", refused, 1, 1, { ends: true }],
    ["a refusal for good at the tenth attempt ends it too", refused, 10, 1, { ends: true }],
    ["a server busy: a minute after the first attempt", busy, 1, 1, { ends: false, wait: MINUTE }],
    ["a server busy: 8 min after the fourth", busy, 4, 1, { ends: false, wait: 8 * MINUTE }],
    ["a server busy: an hour at most", busy, 30, 1, { ends: false, wait: 60 * MINUTE }],
    ["a wait scaled for tests", busy, 2, 0.001, { ends: false, wait: 120 }],
    [
      "a record that cannot be read waits",
      new SyntaxError("JSON"),
      1,
      1,
      { ends: false, wait: MINUTE },
    ],
  ] as const)("%s", (_, error, attempt, scale, expected) => {
    const after = afterFailure(error, attempt, now, scale);
    expect(after.ends).toBe(expected.ends);
    if (!after.ends && "wait" in expected)
      expect(after.retryAt.getTime() - now.getTime()).toBe(expected.wait);
    expect(after.why).toBe(error.message);
  });
});

describe("settle", () => {
  const retryAt = new Date(now.getTime() + MINUTE);
  it.each<[string, Outcome, string[]]>([
    ["sent: recorded sent", { sent: true }, ["sent 7"]],
    [
      "refused for good: failed, while this process holds it",
      { sent: false, ends: true, why: "refused" },
      ["failedForGood 7 me refused"],
    ],
    [
      "a failure that may pass: waits for its retry",
      { sent: false, ends: false, why: "busy", retryAt },
      [`retryLater 7 me ${retryAt.toISOString()} busy`],
    ],
  ])("%s", async (_, outcome, calls) => {
    const written: string[] = [];
    const store = {
      sent: async (id: number) => void written.push(`sent ${id}`),
      failedForGood: async (id: number, owner: string, _at: Date, why: string) =>
        void written.push(`failedForGood ${id} ${owner} ${why}`),
      retryLater: async (id: number, owner: string, at: Date, why: string) =>
        void written.push(`retryLater ${id} ${owner} ${at.toISOString()} ${why}`),
    } as unknown as DeliveryStore;
    await settle(store, 7, "me", outcome, now);
    expect(written).toEqual(calls);
  });
});
