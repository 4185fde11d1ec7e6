/** When a stored day agrees with the API (src/proof/agreement.ts): the rule a window's
 * completeness check, the audit and verify apply alike. */
import { describe, expect, it } from "vitest";
import {
  accountedFor,
  type ContentDifference,
  contentAgrees,
  type DayAccount,
  dayAgrees,
} from "../src/proof/agreement.js";

const SAME: ContentDifference = { missing: 0, changed: 0, extra: 0 };

describe("accountedFor", () => {
  it.each<[string, DayAccount, number]>([
    ["counts the records stored live", { apiCount: 5, stored: 5, rejected: 0 }, 5],
    ["adds those set aside as rejected", { apiCount: 5, stored: 3, rejected: 2 }, 5],
    [
      "leaves out the orders kept on purpose, which no list counts",
      { apiCount: 5, stored: 6, rejected: 1, kept: 2 },
      5,
    ],
    ["counts nothing on an empty day", { apiCount: 0, stored: 0, rejected: 0 }, 0],
  ])("%s", (_name, day, count) => {
    expect(accountedFor(day)).toBe(count);
  });
});

describe("contentAgrees", () => {
  it.each<[string, ContentDifference, boolean]>([
    ["when nothing differs", SAME, true],
    ["not when a listed record is not stored", { ...SAME, missing: 1 }, false],
    ["not when a record is stored with other content", { ...SAME, changed: 1 }, false],
    ["not when a stored record is no longer listed", { ...SAME, extra: 1 }, false],
  ])("%s", (_name, content, agrees) => {
    expect(contentAgrees(content)).toBe(agrees);
  });
});

describe("dayAgrees", () => {
  it.each<[string, DayAccount, boolean]>([
    [
      "when the records accounted for are the API's count",
      { apiCount: 4, stored: 4, rejected: 0 },
      true,
    ],
    ["with rejected records accounted for", { apiCount: 4, stored: 3, rejected: 1 }, true],
    ["with kept orders left out", { apiCount: 4, stored: 5, rejected: 0, kept: 1 }, true],
    ["not with fewer records than the API counts", { apiCount: 4, stored: 3, rejected: 0 }, false],
    ["not with more records than the API counts", { apiCount: 4, stored: 5, rejected: 0 }, false],
    [
      "not with kept orders counted as if listed",
      { apiCount: 5, stored: 5, rejected: 0, kept: 1 },
      false,
    ],
    ["not when the API's count was not read", { apiCount: null, stored: 0, rejected: 0 }, false],
    ["on an empty day the API counts empty", { apiCount: 0, stored: 0, rejected: 0 }, true],
    [
      "when the counts agree and the listing compared agrees record by record",
      { apiCount: 4, stored: 4, rejected: 0, content: SAME },
      true,
    ],
    [
      "not when the counts agree and a record is stored with other content",
      { apiCount: 4, stored: 4, rejected: 0, content: { ...SAME, changed: 1 } },
      false,
    ],
    [
      "not when the counts agree because one missing and one extra cancel out",
      { apiCount: 4, stored: 4, rejected: 0, content: { missing: 1, changed: 0, extra: 1 } },
      false,
    ],
    [
      "not when the listing agrees and the counts do not",
      { apiCount: 4, stored: 3, rejected: 0, content: SAME },
      false,
    ],
  ])("%s", (_name, day, agrees) => {
    expect(dayAgrees(day)).toBe(agrees);
  });
});
