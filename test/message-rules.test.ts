/** The decisions behind the daemon's messages, apart from any I/O: when a morning report is due,
 * which alerts open and close, how long a failed message waits, and what `report --send` says
 * became of each recipient's. */
import { describe, expect, it } from "vitest";
import { alertAbout, alertMessage } from "../src/alerts/alert-message.js";
import {
  alertChanges,
  auditRepairs,
  type Finding,
  keysRejected,
  type OpenAlertState,
  staleData,
  syncFailing,
} from "../src/alerts/alert-rules.js";
import { syncVerdict } from "../src/alerts/sync-failing.js";
import { LocalClock } from "../src/clock/local-clock.js";
import { offsetText } from "../src/clock/offsets.js";
import type { Channels } from "../src/config/channel-addresses.js";
import { minutesOfDay } from "../src/config/channel-settings.js";
import type { RecordedDelivery } from "../src/db/deliveries/deliveries.js";
import {
  locationsOfKey,
  morningReportKey,
  resentKey,
  shownMessageKey,
} from "../src/messages/message-keys.js";
import { retryDelayMs } from "../src/messages/outbox/backoff.js";
import { whyRetired } from "../src/messages/outbox/retire.js";
import { delivered, sendOutcome } from "../src/messages/outbox/send-outcome.js";
import { afterFailure } from "../src/messages/outbox/settle.js";
import { DeliveryError } from "../src/messages/transports/transport.js";
import {
  type DueReport,
  dueReports,
  type LocationClock,
  owedReports,
} from "../src/morning-report/report-due.js";
import type { LocationStats } from "../src/sync/stats.js";
import { formatSend } from "../src/ui/format-send.js";

const at = (iso: string) => new Date(iso);

describe("when the morning report is due", () => {
  const zoned = (id: string, timeZone: string): LocationClock => {
    const clock = LocalClock.of(timeZone);
    return { id, timeZone, offsetAt: (ms) => clock.offsetMinutesAt(ms) ?? 0 };
  };
  /** A location without a time zone: its offset is the one its latest order was sent with. */
  const learned = (id: string, offset: { minutes: number }): LocationClock => ({
    id,
    timeZone: null,
    offsetAt: () => offset.minutes,
  });
  const paris = zoned("loc-paris", "Europe/Paris");
  const berlin = zoned("loc-berlin", "Europe/Paris");
  const newYork = zoned("loc-ny", "America/New_York");
  const due = (now: string, hhmm: string, clocks: LocationClock[]) =>
    dueReports(at(now), minutesOfDay(hhmm), clocks);

  it("owes a day's report from the next day's hour on the location's clock, for 24 hours", () => {
    // 05:59 UTC is 06:59 in Paris: the 28th's report is not due yet; the 27th's day ends.
    expect(due("2026-11-29T05:59:00Z", "07:00", [paris])).toEqual([
      { day: "2026-11-27", clock: "Europe/Paris", locationIds: ["loc-paris"], late: true },
    ]);
    expect(due("2026-11-29T06:00:00Z", "07:00", [paris])).toEqual([
      { day: "2026-11-28", clock: "Europe/Paris", locationIds: ["loc-paris"], late: false },
    ]);
  });

  it("makes one report of the locations that share a clock, and one per clock", () => {
    expect(due("2026-11-29T13:00:00Z", "07:00", [paris, berlin, newYork])).toEqual([
      {
        day: "2026-11-28",
        clock: "Europe/Paris",
        locationIds: ["loc-paris", "loc-berlin"],
        late: true,
      },
      { day: "2026-11-28", clock: "America/New_York", locationIds: ["loc-ny"], late: false },
    ]);
  });

  it("is late three hours after the hour, and an evening hour's report still goes after midnight", () => {
    expect(due("2026-11-29T08:59:00Z", "07:00", [paris])[0]?.late).toBe(false);
    expect(due("2026-11-29T09:00:00Z", "07:00", [paris])[0]?.late).toBe(true);
    // 23:00 in Paris on the 29th: the 28th's report, not late yet.
    expect(due("2026-11-29T22:00:00Z", "22:30", [paris])).toEqual([
      { day: "2026-11-28", clock: "Europe/Paris", locationIds: ["loc-paris"], late: false },
    ]);
    // 01:30 on the 30th: still the 28th's report, now late; the 29th's waits for 22:30.
    expect(due("2026-11-30T00:30:00Z", "22:30", [paris])).toEqual([
      { day: "2026-11-28", clock: "Europe/Paris", locationIds: ["loc-paris"], late: true },
    ]);
    // 22:30 on the 30th: the 28th's time is over, the 29th's begins.
    expect(due("2026-11-30T21:30:00Z", "22:30", [paris])[0]?.day).toBe("2026-11-29");
  });

  it("goes at the hour of the day it goes on, on the mornings of each daylight-saving change", () => {
    const firstDue = (clock: LocationClock, day: string, from: string) => {
      for (let ms = Date.parse(from); ; ms += 60_000) {
        const found = dueReports(new Date(ms), minutesOfDay("07:00"), [clock]);
        if (found.some((r) => r.day === day)) return new Date(ms).toISOString();
      }
    };
    // Paris: summer time from 28 March 2027 (UTC+2), winter time from 31 October 2027 (UTC+1).
    expect(firstDue(paris, "2027-03-27", "2027-03-28T00:00:00Z")).toBe("2027-03-28T05:00:00.000Z");
    expect(firstDue(paris, "2027-03-28", "2027-03-29T00:00:00Z")).toBe("2027-03-29T05:00:00.000Z");
    expect(firstDue(paris, "2027-10-30", "2027-10-31T00:00:00Z")).toBe("2027-10-31T06:00:00.000Z");
    // New York: daylight time from 14 March 2027 (UTC-4), standard from 7 November (UTC-5).
    expect(firstDue(newYork, "2027-03-13", "2027-03-14T00:00:00Z")).toBe(
      "2027-03-14T11:00:00.000Z",
    );
    expect(firstDue(newYork, "2027-11-06", "2027-11-07T00:00:00Z")).toBe(
      "2027-11-07T12:00:00.000Z",
    );
    // 02:30 does not exist on the spring-forward night: the report goes at 03:30.
    const night = (now: string) =>
      dueReports(at(now), minutesOfDay("02:30"), [paris]).map((r) => r.day);
    expect(night("2027-03-28T01:29:00Z")).not.toContain("2027-03-27");
    expect(night("2027-03-28T01:30:00Z")).toContain("2027-03-27");
  });

  it("records a day's report under the day and its locations, the same whatever the clock", () => {
    const offset = { minutes: 60 };
    const lyon = learned("loc-lyon", offset);
    const [winter] = due("2027-03-28T06:00:00Z", "07:00", [lyon]);
    // The API's timestamps move to +02:00 with summer time: the same day is still owed once.
    offset.minutes = 120;
    const [summer] = due("2027-03-28T06:00:00Z", "07:00", [lyon]);
    expect([winter?.clock, summer?.clock]).toEqual(["UTC+01:00", "UTC+02:00"]);
    expect(winter?.day).toBe(summer?.day);
    const key = morningReportKey(winter?.day as string, winter?.locationIds ?? []);
    expect(key).toBe("2027-03-27 of loc-lyon");
    expect(morningReportKey(summer?.day as string, summer?.locationIds ?? [])).toBe(key);
    // Recorded once for a recipient, it is owed to none who has it, whichever clock it is due on.
    const recorded = new Map([["boss", [key]]]);
    expect(owedReports(summer as DueReport, ["boss"], (r) => recorded.get(r) ?? [])).toEqual([]);
    expect(owedReports(summer as DueReport, ["ops"], () => [])).toEqual([
      { locationIds: ["loc-lyon"], recipients: ["ops"] },
    ]);
  });

  it("owes a location that joins a clock's report only what its recipients lack", () => {
    const report: DueReport = {
      day: "2027-03-27",
      clock: "UTC+02:00",
      locationIds: ["loc-a", "loc-b"],
      late: false,
    };
    const keys: Record<string, string[]> = {
      // Had loc-a's report under its own clock before loc-b moved onto it.
      boss: ["2027-03-27 of loc-a"],
      ops: [],
      // Had it under the key an earlier version wrote, which named the clock.
      owner: ["2027-03-27 UTC+01:00"],
    };
    expect(owedReports(report, ["boss", "ops", "owner"], (r) => keys[r] ?? [])).toEqual([
      { locationIds: ["loc-b"], recipients: ["boss"] },
      { locationIds: ["loc-a", "loc-b"], recipients: ["ops"] },
    ]);
    expect(shownMessageKey("morning report", "2027-03-27 of loc-a,loc-b")).toBe(
      "2027-03-27 (2 locations)",
    );
    expect(shownMessageKey("morning report", "2027-03-27 UTC+01:00")).toBe("2027-03-27 UTC+01:00");
  });

  it("names a clock without a time zone by its offset", () => {
    expect([offsetText(60, "clock"), offsetText(-330, "clock"), offsetText(0, "clock")]).toEqual([
      "UTC+01:00",
      "UTC-05:30",
      "UTC",
    ]);
  });

  it("refuses an hour that is not HH:MM", () => {
    expect(minutesOfDay("7:05")).toBe(425);
    for (const bad of ["24:00", "07:60", "7", "seven", "07:00:00"])
      expect(() => minutesOfDay(bad)).toThrow(/^POS_REPORT_AT must be a time of day as HH:MM/);
  });
});

describe("when the sync is failing, for the alert and /healthz alike", () => {
  it("counts failed runs in a row, newest first, and says when the first of them started", () => {
    const now = at("2026-11-29T12:00:00Z");
    // Newest first: status and the minutes before noon it started; errors say which run it is.
    const cases: [string, [status: string, minutesAgo: number][], boolean, string][] = [
      ["no run", [], false, "no run has ended yet"],
      ["a success", [["succeeded", 5]], false, "the last run succeeded"],
      [
        "one failed run after successes",
        [
          ["failed", 5],
          ["succeeded", 20],
        ],
        false,
        "1 run(s) in a row failed, the first at 2026-11-29 11:55 UTC: run 0",
      ],
      [
        "two failed runs",
        [
          ["failed", 5],
          ["failed", 20],
          ["succeeded", 35],
        ],
        false,
        "2 run(s) in a row failed, the first at 2026-11-29 11:40 UTC: run 0",
      ],
      [
        "three failed runs",
        [
          ["failed", 5],
          ["failed", 20],
          ["failed", 35],
          ["succeeded", 50],
        ],
        true,
        "3 run(s) in a row failed, the first at 2026-11-29 11:25 UTC: run 0",
      ],
      [
        "one failed run an hour old",
        [["failed", 60]],
        true,
        "1 run(s) in a row failed, the first at 2026-11-29 11:00 UTC: run 0",
      ],
      [
        "a partial run ends the streak",
        [
          ["partial", 5],
          ["failed", 20],
          ["failed", 35],
          ["failed", 90],
        ],
        false,
        "the last run was partial: run 0",
      ],
      [
        "an interrupted run and one still going are not counted",
        [
          ["running", 1],
          ["failed", 5],
          ["interrupted", 10],
          ["failed", 20],
          ["failed", 35],
        ],
        true,
        "3 run(s) in a row failed, the first at 2026-11-29 11:25 UTC: run 1",
      ],
    ];
    for (const [name, runs, failing, why] of cases) {
      const outcomes = runs.map(([status, minutesAgo], i) => ({
        status,
        startedAt: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
        error: `run ${i}`,
      }));
      expect([name, syncVerdict(outcomes, now)]).toEqual([name, { failing, why }]);
    }
  });
});

describe("health alerts", () => {
  const run = (status: string, startedAt: string, error: string | null = null) => ({
    status,
    startedAt,
    error,
  });

  it("finds the sync failing after three runs in a row, or after an hour of failing", () => {
    const now = at("2026-11-29T12:00:00Z");
    const failed = (minute: number) =>
      run("failed", `2026-11-29T11:${String(minute).padStart(2, "0")}:00Z`, "the API answered 503");
    expect(
      syncFailing([failed(45), failed(30), run("succeeded", "2026-11-29T11:15:00Z")], now).on,
    ).toBe(false);
    const three = syncFailing([failed(45), failed(30), failed(15)], now);
    expect(three).toMatchObject({ kind: "sync failing", subject: "", on: true });
    expect(three.detail).toBe(
      "3 run(s) in a row failed, the first at 2026-11-29 11:15 UTC: the API answered 503",
    );
    // A daily schedule: one run failed, 25 hours ago.
    expect(syncFailing([run("failed", "2026-11-28T11:00:00Z")], now).on).toBe(true);
    // A partial run synced the rest: its failures are the key and data-stale alerts'.
    expect(
      syncFailing([run("partial", "2026-11-29T11:45:00Z"), failed(30), failed(15)], now),
    ).toMatchObject({ on: false, detail: "the last run was partial" });
    expect(syncFailing([run("succeeded", "2026-11-29T11:55:00Z"), failed(50)], now).on).toBe(false);
    expect(syncFailing([], now).on).toBe(false);
  });

  it("sends one alert for a day of failing runs every 15 minutes, and one when it ends", () => {
    let open: OpenAlertState[] = [];
    const sent: string[] = [];
    const runs: ReturnType<typeof run>[] = [];
    const start = Date.parse("2026-11-29T00:00:00Z");
    const step = (status: string, i: number) => {
      const startedAt = new Date(start + i * 15 * 60_000).toISOString();
      runs.unshift(run(status, startedAt, status === "failed" ? "503" : null));
      const changes = alertChanges(
        open,
        [syncFailing(runs, new Date(Date.parse(startedAt) + 60_000))],
        () => false,
      );
      for (const finding of changes.opens) {
        open.push({ id: open.length + 1, kind: finding.kind, subject: finding.subject });
        sent.push(`opened ${finding.kind}`);
      }
      for (const { alert } of changes.closes) {
        open = open.filter((a) => a !== alert);
        sent.push(`closed ${alert.kind}`);
      }
    };
    for (let i = 0; i < 96; i++) step("failed", i);
    for (let i = 96; i < 100; i++) step("succeeded", i);
    expect(sent).toEqual(["opened sync failing", "closed sync failing"]);
  });

  it("opens and closes per key and per location, and leaves alone what the facts do not tell", () => {
    const location = (key: string, rejected: boolean, audit?: LocationStats["audit"]) =>
      ({
        key,
        locationId: rejected ? null : `loc-${key}`,
        name: rejected ? null : `Venue ${key}`,
        label: "Front shop",
        warnings: [],
        streams: {},
        error: null,
        keyRejected: rejected,
        ...(audit ? { audit } : {}),
      }) satisfies LocationStats;
    const stats = [
      location("key#aaaaaaaa", true),
      location("key#bbbbbbbb", false, { windows: 4, repairs: 1, requests: 4, failed: 0 }),
    ];
    const findings: Finding[] = [
      ...keysRejected(stats),
      ...auditRepairs(stats),
      ...staleData(
        [
          { id: "loc-old", name: "Old Town", lastReadAt: "2026-11-27T10:00:00Z" },
          { id: "loc-new", name: null, lastReadAt: undefined },
        ],
        at("2026-11-29T12:00:00Z"),
      ),
    ];
    expect(findings.map((f) => [f.kind, f.subject, f.on])).toEqual([
      ["key rejected", "key#aaaaaaaa", true],
      ["key rejected", "key#bbbbbbbb", false],
      ["audit repairing", "loc-key#bbbbbbbb", true],
      ["data stale", "loc-old", true],
    ]);
    expect(findings[0]?.detail).toBe(
      "the API rejects key#aaaaaaaa (Front shop): check the key in POS_API_KEYS or the config file",
    );
    expect(findings[3]?.detail).toBe("Old Town: its orders were last read at 2026-11-27 10:00 UTC");

    const open: OpenAlertState[] = [
      { id: 1, kind: "key rejected", subject: "key#aaaaaaaa" },
      { id: 2, kind: "key rejected", subject: "key#bbbbbbbb" },
      { id: 3, kind: "data stale", subject: "loc-gone" },
      { id: 4, kind: "audit repairing", subject: "loc-quiet" },
    ];
    const changes = alertChanges(open, findings, (alert) => alert.subject === "loc-gone");
    expect(changes.opens.map((f) => `${f.kind} ${f.subject}`)).toEqual([
      "audit repairing loc-key#bbbbbbbb",
      "data stale loc-old",
    ]);
    expect(changes.closes.map(({ alert, why }) => [alert.id, why])).toEqual([
      [2, "the API accepts key#bbbbbbbb (Venue key#bbbbbbbb) again"],
      [3, "no longer configured"],
    ]);
  });

  it("keeps in its detail when things happened, not how long ago, so that it reads true whenever it is shown", () => {
    const runs = [45, 30, 15].map((minute) =>
      run("failed", `2026-11-29T11:${minute}:00Z`, "the API answered 503"),
    );
    const lastRead = [{ id: "loc-old", name: "Old Town", lastReadAt: "2026-11-27T10:00:00Z" }];
    // Decided when the alert opens, and again hours later as /healthz does: the same words.
    const [atNoon, later] = ["2026-11-29T12:00:00Z", "2026-11-29T17:30:00Z"].map((now) => [
      syncFailing(runs, at(now)).detail,
      staleData(lastRead, at(now))[0]?.detail,
    ]);
    expect(later).toEqual(atNoon);
    expect(atNoon).toEqual([
      "3 run(s) in a row failed, the first at 2026-11-29 11:15 UTC: the API answered 503",
      "Old Town: its orders were last read at 2026-11-27 10:00 UTC",
    ]);
  });

  it("names the location, or the key, in its subject, so that two locations' alerts are told apart", () => {
    const locations = [
      { id: "loc-1", name: "Le Petit Zinc" },
      { id: "loc-2", name: "Trattoria Aurora" },
      { id: "loc-3", name: null },
    ];
    const alert = (id: number, kind: string, subject: string) => ({
      id,
      kind,
      subject,
      detail: "what was found",
      openedAt: "2026-11-29T06:00:00.000Z",
    });
    const subjectOf = (event: ReturnType<typeof alert>) =>
      alertMessage({ ...event, about: alertAbout(event, locations) }).subject;
    expect(
      [
        alert(1, "data stale", "loc-1"),
        alert(2, "data stale", "loc-2"),
        alert(3, "audit repairing", "loc-3"),
        alert(4, "key rejected", "key#1a2b3c4d"),
        alert(5, "sync failing", ""),
      ].map(subjectOf),
    ).toEqual([
      "pos-sync alert: data stale at Le Petit Zinc",
      "pos-sync alert: data stale at Trattoria Aurora",
      "pos-sync alert: audit repairing at loc-3",
      "pos-sync alert: key rejected for key#1a2b3c4d",
      "pos-sync alert: sync failing",
    ]);
    const closed = alertMessage({
      ...alert(1, "data stale", "loc-1"),
      about: "Le Petit Zinc",
      closedAt: "2026-11-29T08:30:00.000Z",
      resolution: "the orders were read",
    });
    expect(closed.subject).toBe("pos-sync resolved: data stale at Le Petit Zinc, after 2 h 30 min");
    expect(closed.text.split("\n")[0]).toBe(closed.subject);
  });

  it("writes an alert and its end in plain words, API text made visible", () => {
    const opened = alertMessage({
      id: 7,
      kind: "data stale",
      subject: "loc-1",
      detail: "Le Petit\u001b[31m Zinc: its orders were last read at 2026-11-28 05:45 UTC",
      openedAt: "2026-11-29T06:00:00.000Z",
    });
    expect(opened.subject).toBe("pos-sync alert: data stale");
    expect(opened.text).not.toContain("\u001b");
    expect(opened.text).toContain("Since 2026-11-29 06:00 UTC.");
    const closed = alertMessage({
      id: 7,
      kind: "data stale",
      subject: "loc-1",
      detail: "Le Petit Zinc: its orders were last read at 2026-11-28 05:45 UTC",
      openedAt: "2026-11-29T06:00:00.000Z",
      closedAt: "2026-11-29T08:30:00.000Z",
      resolution: "Le Petit Zinc: its orders were last read at 2026-11-29 08:29 UTC",
    });
    expect(closed.subject).toBe("pos-sync resolved: data stale, after 2 h 30 min");
    expect(closed.data).toMatchObject({
      alert: { state: "closed", closedAt: "2026-11-29T08:30:00.000Z" },
    });
  });
});

describe("the outbox's waits", () => {
  it("doubles from a minute to at most an hour", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => retryDelayMs(n) / 60_000)).toEqual([
      1, 2, 4, 8, 16, 32, 60, 60, 60,
    ]);
  });
});

describe("what becomes of a message not sent", () => {
  const now = at("2026-11-29T06:00:00Z");

  it("ends a refusal for good with the server's answer, and waits after one that may pass", () => {
    const refused = new DeliveryError(
      "e-mail",
      false,
      "mail.example.com:587",
      "the mail server mail.example.com:587 refused the recipient gone@example.com (550 5.1.1 No such user here): check POS_REPORT_TO",
    );
    expect(afterFailure(refused, 1, now, 1)).toEqual({ ends: true, why: refused.message });
    const busy = new DeliveryError("webhook", true, "https://hooks.example.com/…", "answered 503");
    expect(afterFailure(busy, 3, now, 1)).toEqual({
      ends: false,
      why: "webhook: answered 503",
      retryAt: at("2026-11-29T06:04:00Z"),
    });
    // A fault of pos-sync's own drops nothing owed.
    expect(afterFailure(new SyntaxError("bad JSON"), 1, now, 1)).toMatchObject({ ends: false });
  });

  it("retires a message whose recipient left the settings, saying which setting", () => {
    const report: Channels = {
      mail: { smtpUrl: "smtp://mail.example.com", from: "r@example.com", to: ["a@example.com"] },
      webhookUrl: "https://hooks.example.com/services/NEW",
    };
    const mail = (recipient: string) => ({ channel: "e-mail", recipient });
    const hook = { channel: "webhook", recipient: "https://hooks.example.com/…" };
    expect(whyRetired(mail("a@example.com"), report)).toBeUndefined();
    // The token path is not stored: a new token on the same host is the same recipient.
    expect(whyRetired(hook, report)).toBeUndefined();
    expect(whyRetired(mail("b@example.com"), report)).toBe("POS_REPORT_TO no longer lists it");
    expect(whyRetired({ channel: "webhook", recipient: "https://old.example.com/…" }, report)).toBe(
      "the webhook address changed (POS_REPORT_WEBHOOK_URL)",
    );
    const none: Channels = { mail: undefined, webhookUrl: undefined };
    expect(whyRetired(hook, none)).toBe("POS_REPORT_WEBHOOK_URL is no longer set");
    expect(whyRetired(mail("a@example.com"), none)).toMatch(/^e-mail is no longer set up/);
  });
});

describe("what report --send says became of each recipient's report", () => {
  const boss = { channel: "e-mail" as const, recipient: "boss@example.com" };
  let id = 0;
  const message = (key: string, fields: Partial<RecordedDelivery> = {}): RecordedDelivery => ({
    id: ++id,
    key,
    channel: "e-mail",
    recipient: boss.recipient,
    status: "sent",
    sentAt: "2027-03-28T06:00:00.000Z",
    nextAttemptAt: "2027-03-28T06:00:00.000Z",
    lastError: null,
    ...fields,
  });
  const both = ["loc-a", "loc-b"];

  it("keeps a resent report's locations and its day, under a key of its own", () => {
    const key = morningReportKey("2027-03-27", both);
    const again = resentKey(key, at("2027-03-28T09:15:00Z"));
    expect(again).toBe("2027-03-27 of loc-a,loc-b resent 2027-03-28T09:15:00.000Z");
    expect(locationsOfKey(again)).toEqual(both);
    expect(shownMessageKey("morning report", again)).toBe("2027-03-27 (2 locations), resent");
  });

  it("says sent for what this run sent, and already sent, with when, for what an earlier one did", () => {
    const now = message("2027-03-27 of loc-a,loc-b", { sentAt: "2027-03-28T09:00:00.000Z" });
    expect(sendOutcome(boss, both, [now], new Set([now.id]))).toEqual({ kind: "sent" });
    // The daemon sent loc-a under one clock, then loc-b under another: nothing new, since the last.
    const parts = [
      message("2027-03-27 of loc-a"),
      message("2027-03-27 of loc-b", { sentAt: "2027-03-28T07:00:00.000Z" }),
    ];
    expect(sendOutcome(boss, both, parts, new Set())).toEqual({
      kind: "already sent",
      at: "2027-03-28T07:00:00.000Z",
    });
    // Another recipient's messages are not this one's; a report of an earlier version covered all.
    const other = message("2027-03-27 of loc-a,loc-b", { recipient: "ops@example.com" });
    expect(sendOutcome(boss, both, [other], new Set())).toEqual({ kind: "not recorded" });
    expect(sendOutcome(boss, both, [message("2027-03-27 UTC+01:00")], new Set())).toMatchObject({
      kind: "already sent",
    });
  });

  it("says what waits, with why and from when, and what ended, worst location first", () => {
    const waiting = message("2027-03-27 of loc-b", {
      status: "waiting",
      sentAt: null,
      nextAttemptAt: "2027-03-28T09:01:00.000Z",
      lastError:
        "e-mail: the mail server mail.example.com:587 deferred the recipients for now (450)",
    });
    const outcome = sendOutcome(boss, both, [message("2027-03-27 of loc-a"), waiting], new Set());
    expect(outcome).toEqual({
      kind: "waiting",
      why: waiting.lastError,
      nextAttemptAt: "2027-03-28T09:01:00.000Z",
    });
    expect(delivered(outcome)).toBe(false);
    const refused = message("2027-03-27 of loc-a,loc-b", {
      status: "failed",
      sentAt: null,
      lastError: "e-mail: refused (550)",
    });
    expect(sendOutcome(boss, both, [refused], new Set())).toEqual({
      kind: "failed",
      why: "e-mail: refused (550)",
      at: refused.nextAttemptAt,
    });
  });

  it("never promises a retry it does not make: what waits is the daemon's or the next --send's", () => {
    const hook = { channel: "webhook" as const, recipient: "https://hooks.example.com/…" };
    const text = formatSend([
      {
        day: "2027-03-27",
        locations: 2,
        resend: false,
        outcomes: [
          { recipient: boss, outcome: { kind: "already sent", at: "2027-03-28T06:00:00.000Z" } },
          {
            recipient: hook,
            outcome: {
              kind: "waiting",
              why: "webhook: https://hooks.example.com/… answered 503 Service Unavailable: not taken for now",
              nextAttemptAt: "2027-03-28T09:01:00.000Z",
            },
          },
        ],
      },
    ]);
    expect(text.stdout).toBe(
      [
        "Morning report of 2027-03-27 (2 locations):",
        "  boss@example.com by e-mail: already sent 2027-03-28 06:00 UTC: nothing new",
        "  https://hooks.example.com/… by webhook: not delivered now: it waits in the outbox (webhook: https://hooks.example.com/… answered 503 Service Unavailable: not taken for now), next attempt from 2027-03-28 09:01 UTC",
        "",
      ].join("\n"),
    );
    expect(text.stderr).toBe(
      "pos-sync: report --send: 1 message could not be delivered now and waits in the outbox: the daemon, if it runs, tries it again; otherwise run pos-sync report --send again\n",
    );
    expect(text.stdout + text.stderr).not.toMatch(/will be tried again/);
  });
});
