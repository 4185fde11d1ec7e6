/** What a snapshot of a list the API returns whole (catalog, devices) does to the rows stored for
 * its location (src/db/rules/snapshot.ts): inserted, replaced, restored, kept, marked deleted. */
import { describe, expect, it } from "vitest";
import {
  type IncomingListRecord,
  planSnapshot,
  type SnapshotCounts,
  type StoredListRow,
} from "../src/db/rules/snapshot.js";

const AT = "2026-11-28T12:00:00.000Z";

/** A listed record: its id and its content (hash). */
function listed(id: string, contentHash: number | null = 1): IncomingListRecord {
  return {
    rows: {
      parent: {
        location_id: "loc-1",
        id,
        content_hash: contentHash,
        deleted_at: null,
        synced_at: AT,
      },
      children: [],
    },
    raw: `{"id":"${id}"}`,
  };
}

const live = (id: string, contentHash: number | null = 1): StoredListRow => ({
  id,
  content_hash: contentHash,
  deleted_at: null,
});
const deleted = (id: string, contentHash: number | null = 1): StoredListRow => ({
  id,
  content_hash: contentHash,
  deleted_at: "2026-11-27T12:00:00.000Z",
});

interface SnapshotCase {
  name: string;
  records: IncomingListRecord[];
  stored: StoredListRow[];
  /** Ids listed without a valid record (failed validation); the records' ids are listed too. */
  listedInvalid?: string[];
  /** False: some listed record had no usable id. */
  complete?: boolean;
  counts: Omit<SnapshotCounts, "deleted">;
  /** Ids written, in the list's order, and whether each replaces a stored row. */
  writes: [id: string, replaces: boolean][];
  restores: string[];
  vanished: string[];
}

const NONE = { inserted: 0, updated: 0, unchanged: 0, restored: 0 };

const cases: SnapshotCase[] = [
  {
    name: "inserts a record not stored",
    records: [listed("new")],
    stored: [],
    counts: { ...NONE, inserted: 1 },
    writes: [["new", false]],
    restores: [],
    vanished: [],
  },
  {
    name: "replaces a record whose content changed",
    records: [listed("p-1", 2)],
    stored: [live("p-1", 1)],
    counts: { ...NONE, updated: 1 },
    writes: [["p-1", true]],
    restores: [],
    vanished: [],
  },
  {
    name: "keeps a record whose content is the same",
    records: [listed("p-1")],
    stored: [live("p-1")],
    counts: { ...NONE, unchanged: 1 },
    writes: [],
    restores: [],
    vanished: [],
  },
  {
    name: "marks deleted a live row a complete list no longer names",
    records: [listed("p-1")],
    stored: [live("p-1"), live("gone")],
    counts: { ...NONE, unchanged: 1 },
    writes: [],
    restores: [],
    vanished: ["gone"],
  },
  {
    name: "marks nothing deleted when the list is not complete",
    records: [listed("p-1")],
    stored: [live("p-1"), live("gone")],
    complete: false,
    counts: { ...NONE, unchanged: 1 },
    writes: [],
    restores: [],
    vanished: [],
  },
  {
    name: "does not mark deleted a row listed but set aside as invalid",
    records: [],
    stored: [live("invalid")],
    listedInvalid: ["invalid"],
    counts: NONE,
    writes: [],
    restores: [],
    vanished: [],
  },
  {
    name: "does not mark a row deleted again",
    records: [],
    stored: [deleted("gone")],
    counts: NONE,
    writes: [],
    restores: [],
    vanished: [],
  },
  {
    name: "marks every live row deleted when a complete list is empty",
    records: [],
    stored: [live("p-1"), live("p-2")],
    counts: NONE,
    writes: [],
    restores: [],
    vanished: ["p-1", "p-2"],
  },
  {
    name: "restores a row listed again with the content it was marked deleted with",
    records: [listed("back")],
    stored: [deleted("back")],
    counts: { ...NONE, restored: 1 },
    writes: [],
    restores: ["back"],
    vanished: [],
  },
  {
    name: "replaces a row listed again with other content, counted updated, not restored",
    records: [listed("back", 2)],
    stored: [deleted("back", 1)],
    counts: { ...NONE, updated: 1 },
    writes: [["back", true]],
    restores: [],
    vanished: [],
  },
  {
    name: "a record listed twice with the same content is inserted once, the second unchanged",
    records: [listed("p-1"), listed("p-1")],
    stored: [],
    counts: { ...NONE, inserted: 1, unchanged: 1 },
    writes: [["p-1", false]],
    restores: [],
    vanished: [],
  },
  {
    name: "a new record listed twice with other content is inserted once, as its last entry",
    records: [listed("p-1", 1), listed("p-1", 2)],
    stored: [],
    counts: { ...NONE, inserted: 1, updated: 1 },
    writes: [["p-1", false]],
    restores: [],
    vanished: [],
  },
  {
    name: "a restored row listed twice is restored once",
    records: [listed("back"), listed("back")],
    stored: [deleted("back")],
    counts: { ...NONE, restored: 1, unchanged: 1 },
    writes: [],
    restores: ["back"],
    vanished: [],
  },
  {
    name: "a snapshot of every kind at once",
    records: [listed("new"), listed("same"), listed("changed", 2), listed("back")],
    stored: [live("same"), live("changed"), deleted("back"), live("gone"), deleted("long gone")],
    counts: { inserted: 1, updated: 1, unchanged: 1, restored: 1 },
    writes: [
      ["new", false],
      ["changed", true],
    ],
    restores: ["back"],
    vanished: ["gone"],
  },
];

describe("planSnapshot", () => {
  it.each(cases)("$name", (c) => {
    const ids = [...c.records.map((r) => r.rows.parent.id), ...(c.listedInvalid ?? [])];
    const plan = planSnapshot(
      {
        locationId: "loc-1",
        records: c.records,
        listedIds: new Set(ids),
        complete: c.complete ?? true,
        syncedAt: AT,
      },
      new Map(c.stored.map((row) => [row.id, row])),
    );
    expect(plan.counts).toEqual({ ...c.counts, deleted: 0 });
    expect([...plan.writes].map(([id, w]) => [id, w.replaces])).toEqual(c.writes);
    expect(plan.restores).toEqual(c.restores);
    expect(plan.vanished).toEqual(c.vanished);
  });

  it("writes a record listed twice as its last entry", () => {
    const last = listed("p-1", 3);
    const plan = planSnapshot(
      {
        locationId: "loc-1",
        records: [listed("p-1", 2), last],
        listedIds: new Set(["p-1"]),
        complete: true,
        syncedAt: AT,
      },
      new Map([["p-1", live("p-1", 1)]]),
    );
    expect(plan.counts).toMatchObject({ updated: 2 });
    expect(plan.writes.get("p-1")).toEqual({ record: last, replaces: true });
  });
});
