/** What a page of a day stream does to the records stored (src/db/rules/day-page.ts): each
 * record's decision, and the page's plan, its counts, writes, rewrites and earlier days. */
import { describe, expect, it } from "vitest";
import {
  type Decision,
  decide,
  type IncomingRecord,
  planPage,
  type StoredVersion,
} from "../src/db/rules/day-page.js";
import type { ParentRow } from "../src/db/rules/record-rows.js";

const DAY = "2026-11-28";
const NOON = "2026-11-28T12:00:00.000Z";
const EARLIER = "2026-11-28T11:00:00.000Z";
const LATER = "2026-11-28T13:00:00.000Z";

/** An order's own row as a page brings it. */
function parent(id: string, fields: Partial<ParentRow> = {}): ParentRow {
  return {
    id,
    location_id: "loc-1",
    business_date: DAY,
    updated_at: NOON,
    content_hash: 1,
    deleted_at: null,
    ...fields,
  };
}

function incoming(id: string, fields: Partial<ParentRow> = {}): IncomingRecord {
  return { rows: { parent: parent(id, fields), children: [] }, raw: `{"id":"${id}"}` };
}

function stored(id: string, fields: Partial<StoredVersion> = {}): StoredVersion {
  return {
    id,
    business_date: DAY,
    updated_at: NOON,
    content_hash: 1,
    deleted_at: null,
    ...fields,
  };
}

describe("decide", () => {
  const cases: [
    name: string,
    incoming: Partial<ParentRow>,
    stored: Partial<StoredVersion> | undefined,
    rewrite: boolean,
    decision: Decision,
  ][] = [
    ["a record not stored is inserted", {}, undefined, false, "insert"],
    ["a record not stored is inserted, on a repair too", {}, undefined, true, "insert"],
    ["the same content on the same day is kept", {}, {}, false, "keep"],
    [
      "the same content is kept whatever its updatedAt says",
      { updated_at: LATER },
      {},
      false,
      "keep",
    ],
    [
      "a newer version with other content replaces",
      { updated_at: LATER, content_hash: 2 },
      {},
      false,
      "replace",
    ],
    [
      "other content with the same updatedAt replaces (a correction that left updatedAt alone)",
      { content_hash: 2 },
      {},
      false,
      "replace",
    ],
    ["an older version is kept", { updated_at: EARLIER, content_hash: 2 }, {}, false, "keep"],
    [
      "the same content listed under another day replaces (the API moved it)",
      { business_date: "2026-11-29" },
      {},
      false,
      "replace",
    ],
    [
      "a record marked deleted and listed again comes back, with the same content",
      {},
      { deleted_at: LATER },
      false,
      "replace",
    ],
    [
      "a record marked deleted and listed again comes back, even as an older version",
      { updated_at: EARLIER, content_hash: 2 },
      { deleted_at: LATER },
      false,
      "replace",
    ],
    ["a repair rewrites the same content in place", {}, {}, true, "rewrite"],
    [
      "a repair replaces other content even when it is older (the API's listing is restored)",
      { updated_at: EARLIER, content_hash: 2 },
      {},
      true,
      "replace",
    ],
    [
      "a repair replaces a record the API moved to another day",
      { business_date: "2026-11-29" },
      {},
      true,
      "replace",
    ],
    [
      "a record without a content hash against one without is the same content",
      { content_hash: null },
      { content_hash: null },
      false,
      "keep",
    ],
    [
      "a content hash where none was stored is other content",
      { updated_at: LATER },
      { content_hash: null },
      false,
      "replace",
    ],
  ];

  it.each(cases)("%s", (_name, fields, storedFields, rewrite, decision) => {
    const version = storedFields === undefined ? undefined : stored("o-1", storedFields);
    expect(decide(parent("o-1", fields), version, rewrite)).toBe(decision);
  });

  it("keeps, not rewrites, when no repair is asked (the default)", () => {
    expect(decide(parent("o-1"), stored("o-1"))).toBe("keep");
  });
});

describe("planPage", () => {
  interface PlanCase {
    name: string;
    records: IncomingRecord[];
    stored: StoredVersion[];
    repair?: string[];
    counts: { inserted: number; updated: number; unchanged: number };
    /** The ids written (inserted or replaced), in the page's order, with the stored version each
     * replaces (its updated_at; null for a new record). */
    writes: [id: string, replaces: string | null][];
    rewrites: string[];
    earlierDays: string[];
  }

  const cases: PlanCase[] = [
    {
      name: "an empty page plans nothing",
      records: [],
      stored: [stored("o-1")],
      counts: { inserted: 0, updated: 0, unchanged: 0 },
      writes: [],
      rewrites: [],
      earlierDays: [],
    },
    {
      name: "inserts new records, keeps unchanged ones, replaces changed ones, keeps older ones",
      records: [
        incoming("new"),
        incoming("same"),
        incoming("changed", { updated_at: LATER, content_hash: 2 }),
        incoming("older", { updated_at: EARLIER, content_hash: 2 }),
      ],
      stored: [stored("same"), stored("changed"), stored("older")],
      counts: { inserted: 1, updated: 1, unchanged: 2 },
      writes: [
        ["new", null],
        ["changed", NOON],
      ],
      rewrites: [],
      earlierDays: [],
    },
    {
      name: "rewrites a repaired record of the same content in place, and counts it updated",
      records: [incoming("edited"), incoming("other")],
      stored: [stored("edited"), stored("other")],
      repair: ["edited"],
      counts: { inserted: 0, updated: 1, unchanged: 1 },
      writes: [],
      rewrites: ["edited"],
      earlierDays: [],
    },
    {
      name: "replaces a repaired record of other content, older or not",
      records: [incoming("o-1", { updated_at: EARLIER, content_hash: 2 })],
      stored: [stored("o-1")],
      repair: ["o-1"],
      counts: { inserted: 0, updated: 1, unchanged: 0 },
      writes: [["o-1", NOON]],
      rewrites: [],
      earlierDays: [],
    },
    {
      name: "brings back a record marked deleted, replacing the deleted version",
      records: [incoming("o-1")],
      stored: [stored("o-1", { deleted_at: LATER })],
      counts: { inserted: 0, updated: 1, unchanged: 0 },
      writes: [["o-1", NOON]],
      rewrites: [],
      earlierDays: [],
    },
    {
      name: "names the day a moved record was stored under, once however many moved from it",
      records: [
        incoming("o-1", { business_date: "2026-11-29" }),
        incoming("o-2", { business_date: "2026-11-29" }),
        incoming("o-3", { business_date: "2026-11-29", content_hash: 2 }),
      ],
      stored: [
        stored("o-1"),
        stored("o-2"),
        stored("o-3", { business_date: "2026-11-27", content_hash: 1 }),
      ],
      counts: { inserted: 0, updated: 3, unchanged: 0 },
      writes: [
        ["o-1", NOON],
        ["o-2", NOON],
        ["o-3", NOON],
      ],
      rewrites: [],
      earlierDays: [DAY, "2026-11-27"],
    },
    {
      name: "names no earlier day for a record replaced on its own day",
      records: [incoming("o-1", { updated_at: LATER, content_hash: 2 })],
      stored: [stored("o-1")],
      counts: { inserted: 0, updated: 1, unchanged: 0 },
      writes: [["o-1", NOON]],
      rewrites: [],
      earlierDays: [],
    },
    {
      name: "a record twice in a page with the same content is written once, the second unchanged",
      records: [incoming("o-1"), incoming("o-1")],
      stored: [],
      counts: { inserted: 1, updated: 0, unchanged: 1 },
      writes: [["o-1", null]],
      rewrites: [],
      earlierDays: [],
    },
    {
      name: "a new record twice in a page, changed between, is inserted once as its last entry",
      records: [incoming("o-1"), incoming("o-1", { updated_at: LATER, content_hash: 2 })],
      stored: [],
      counts: { inserted: 1, updated: 1, unchanged: 0 },
      writes: [["o-1", null]],
      rewrites: [],
      earlierDays: [],
    },
    {
      name: "a stored record twice in a page replaces the version stored before the page",
      records: [
        incoming("o-1", { updated_at: LATER, content_hash: 2 }),
        incoming("o-1", { updated_at: "2026-11-28T14:00:00.000Z", content_hash: 3 }),
      ],
      stored: [stored("o-1")],
      counts: { inserted: 0, updated: 2, unchanged: 0 },
      writes: [["o-1", NOON]],
      rewrites: [],
      earlierDays: [],
    },
    {
      name: "a stored record twice in a page, moved to another day by its second entry, names the day it was stored under",
      records: [
        incoming("o-1", { business_date: "2026-11-27", updated_at: LATER, content_hash: 2 }),
        incoming("o-1", { updated_at: "2026-11-28T14:00:00.000Z", content_hash: 3 }),
      ],
      stored: [stored("o-1", { business_date: "2026-11-27" })],
      counts: { inserted: 0, updated: 2, unchanged: 0 },
      writes: [["o-1", NOON]],
      rewrites: [],
      earlierDays: ["2026-11-27"],
    },
    {
      name: "a record twice in a page, the second older than the first, keeps the first",
      records: [
        incoming("o-1", { updated_at: LATER, content_hash: 2 }),
        incoming("o-1", { updated_at: EARLIER, content_hash: 3 }),
      ],
      stored: [stored("o-1")],
      counts: { inserted: 0, updated: 1, unchanged: 1 },
      writes: [["o-1", NOON]],
      rewrites: [],
      earlierDays: [],
    },
    {
      name: "a record marked deleted, twice in a page, comes back once and is then kept",
      records: [incoming("o-1"), incoming("o-1")],
      stored: [stored("o-1", { deleted_at: LATER })],
      counts: { inserted: 0, updated: 1, unchanged: 1 },
      writes: [["o-1", NOON]],
      rewrites: [],
      earlierDays: [],
    },
  ];

  it.each(cases)("$name", (c) => {
    const plan = planPage(
      c.records,
      new Map(c.stored.map((s) => [s.id, s])),
      c.repair ? new Set(c.repair) : undefined,
    );
    expect(plan.counts).toEqual({ ...c.counts, rowsWritten: 0 });
    expect([...plan.writes].map(([id, w]) => [id, w.replaces?.updated_at ?? null])).toEqual(
      c.writes,
    );
    expect([...plan.rewrites.keys()]).toEqual(c.rewrites);
    expect(plan.earlierDays).toEqual(c.earlierDays);
  });

  it("writes a record twice in a page as its last entry, replacing the stored version itself", () => {
    const before = stored("o-1", { deleted_at: LATER });
    const last = incoming("o-1", { updated_at: "2026-11-28T14:00:00.000Z", content_hash: 3 });
    const plan = planPage(
      [incoming("o-1", { updated_at: LATER, content_hash: 2 }), last],
      new Map([["o-1", before]]),
    );
    const write = plan.writes.get("o-1");
    expect(write?.record).toBe(last);
    // The stored version as it was: the writers keep it in history only while it was live.
    expect(write?.replaces).toBe(before);
  });

  it("rewrites a repaired record with the rows the page brings", () => {
    const record = incoming("o-1");
    const plan = planPage([record], new Map([["o-1", stored("o-1")]]), new Set(["o-1"]));
    expect(plan.rewrites.get("o-1")).toBe(record.rows);
  });
});
