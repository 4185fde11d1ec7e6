/** The health alerts' rules at their edges (src/alerts/alert-rules.ts, sync-failing.ts), each by
 * table: what each rule finds of a location, a key or the runs, and what the findings open and
 * close. test/message-rules.test.ts tells the alerts' story over runs; these pin each branch. */
import { describe, expect, it } from "vitest";
import {
  alertChanges,
  auditRepairs,
  type Finding,
  keysRejected,
  type OpenAlertState,
  STALE_AFTER_MS,
  staleData,
} from "../src/alerts/alert-rules.js";
import { syncVerdict } from "../src/alerts/sync-failing.js";
import type { AuditStats, LocationStats } from "../src/sync/stats.js";

const NOW = new Date("2026-11-29T12:00:00.000Z");

function location(fields: Partial<LocationStats>): LocationStats {
  return {
    key: "key#1a2b3c4d",
    locationId: "loc-1",
    name: "Le Petit Zinc",
    label: null,
    warnings: [],
    streams: {},
    error: null,
    keyRejected: false,
    ...fields,
  };
}

const audit = (windows: number, repairs: number): AuditStats => ({
  windows,
  repairs,
  requests: windows,
  failed: 0,
});

describe("keysRejected", () => {
  it.each<[string, Partial<LocationStats>, boolean, string]>([
    [
      "a rejected key, named by the location's name",
      { keyRejected: true, label: "Front shop" },
      true,
      "the API rejects key#1a2b3c4d (Le Petit Zinc): check the key in POS_API_KEYS or the config file",
    ],
    [
      "a rejected key whose location is not known, named by its label",
      { keyRejected: true, locationId: null, name: null, label: "Front shop" },
      true,
      "the API rejects key#1a2b3c4d (Front shop): check the key in POS_API_KEYS or the config file",
    ],
    [
      "a rejected key with neither name nor label, by its fingerprint alone",
      { keyRejected: true, locationId: null, name: null },
      true,
      "the API rejects key#1a2b3c4d: check the key in POS_API_KEYS or the config file",
    ],
    ["an accepted key", {}, false, "the API accepts key#1a2b3c4d (Le Petit Zinc) again"],
  ])("%s", (_name, fields, on, detail) => {
    expect(keysRejected([location(fields)])).toEqual([
      { kind: "key rejected", subject: "key#1a2b3c4d", on, detail },
    ]);
  });
});

describe("auditRepairs", () => {
  it.each<[string, Partial<LocationStats>, Finding[]]>([
    ["nothing of a location the audit did not run for", {}, []],
    ["nothing of a location the audit proved no day of", { audit: audit(0, 0) }, []],
    ["nothing of a key whose location is not known", { locationId: null, audit: audit(3, 1) }, []],
    [
      "off when every day proved agrees",
      { audit: audit(4, 0) },
      [
        {
          kind: "audit repairing",
          subject: "loc-1",
          on: false,
          detail: "Le Petit Zinc: the 4 day(s) the audit proved last agree with the API",
        },
      ],
    ],
    [
      "on when one day disagreed, the location named by its id when it has no name",
      { name: null, audit: audit(4, 1) },
      [
        {
          kind: "audit repairing",
          subject: "loc-1",
          on: true,
          detail:
            "loc-1: the audit found 1 stored day(s) that no longer agree with the API and read them again (see status, and history_repairs)",
        },
      ],
    ],
  ])("%s", (_name, fields, findings) => {
    expect(auditRepairs([location(fields)])).toEqual(findings);
  });
});

describe("staleData", () => {
  const readAgo = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

  it.each<[string, string | undefined, boolean | undefined]>([
    ["nothing of a location whose orders were never read completely", undefined, undefined],
    ["not stale when read an hour ago", readAgo(3_600_000), false],
    ["not stale when read exactly a day ago", readAgo(STALE_AFTER_MS), false],
    ["stale when read a day and a moment ago", readAgo(STALE_AFTER_MS + 1), true],
  ])("%s", (_name, lastReadAt, on) => {
    const findings = staleData([{ id: "loc-1", name: null, lastReadAt }], NOW);
    expect(findings.map((f) => f.on)).toEqual(on === undefined ? [] : [on]);
    for (const finding of findings)
      expect(finding.detail).toMatch(/^loc-1: its orders were last read at /);
  });
});

describe("alertChanges", () => {
  const OPEN: OpenAlertState = { id: 7, kind: "data stale", subject: "loc-1" };
  const found = (on: boolean, subject = "loc-1"): Finding => ({
    kind: "data stale",
    subject,
    on,
    detail: on ? "stale" : "read again",
  });

  it.each<
    [
      name: string,
      open: OpenAlertState[],
      findings: Finding[],
      retired: boolean,
      opens: string[],
      closes: [id: number, why: string][],
    ]
  >([
    ["opens a state found on with no alert open", [], [found(true)], false, ["loc-1"], []],
    [
      "opens nothing for a state found on that is already open",
      [OPEN],
      [found(true)],
      false,
      [],
      [],
    ],
    [
      "closes an open alert whose state is found off, saying why",
      [OPEN],
      [found(false)],
      false,
      [],
      [[7, "read again"]],
    ],
    ["closes nothing for a state found off with no alert open", [], [found(false)], false, [], []],
    ["leaves an alert the facts say nothing of as it is", [OPEN], [], false, [], []],
    [
      "closes an alert the facts say nothing of when its subject is no longer configured",
      [OPEN],
      [],
      true,
      [],
      [[7, "no longer configured"]],
    ],
    [
      "keeps an alert the facts still find on, even if its subject left the settings",
      [OPEN],
      [found(true)],
      true,
      [],
      [],
    ],
    [
      "closes by the facts, not by the settings, when both tell",
      [OPEN],
      [found(false)],
      true,
      [],
      [[7, "read again"]],
    ],
    [
      "tells one subject's alert from another's of the same kind",
      [OPEN],
      [found(false, "loc-3"), found(true, "loc-2")],
      false,
      ["loc-2"],
      [],
    ],
    [
      "tells one kind's alert from another's of the same subject",
      [{ id: 8, kind: "audit repairing", subject: "loc-1" }],
      [found(true)],
      false,
      ["loc-1"],
      [],
    ],
  ])("%s", (_name, open, findings, retired, opens, closes) => {
    const changes = alertChanges(open, findings, () => retired);
    expect(changes.opens.map((f) => f.subject)).toEqual(opens);
    expect(changes.closes.map(({ alert, why }) => [alert.id, why])).toEqual(closes);
  });
});

describe("syncVerdict's words", () => {
  const run = (status: string, minutesAgo: number, error: string | null) => ({
    status,
    startedAt: new Date(NOW.getTime() - minutesAgo * 60_000).toISOString(),
    error,
  });

  it.each<[string, ReturnType<typeof run>[], string]>([
    [
      "a failed run without an error says its status",
      [run("failed", 5, null)],
      "1 run(s) in a row failed, the first at 2026-11-29 11:55 UTC: failed",
    ],
    [
      "names the newest failed run's error, and when the first started",
      [run("failed", 5, "the API answered 503"), run("failed", 20, "the database is locked")],
      "2 run(s) in a row failed, the first at 2026-11-29 11:40 UTC: the API answered 503",
    ],
    [
      "a partial run without an error says its status alone",
      [run("partial", 5, null)],
      "the last run was partial",
    ],
    [
      "only interrupted runs and one still going: no run has ended",
      [run("running", 1, null), run("interrupted", 5, null)],
      "no run has ended yet",
    ],
  ])("%s", (_name, runs, why) => {
    expect(syncVerdict(runs, NOW).why).toBe(why);
  });
});
