/**
 * Benchmark 9: self-healing history. A chain is backfilled, then the simulator drifts 1 % of its
 * old days (an order changed, removed or added, no updatedAt touched). A daemon's first run with
 * POS_AUDIT_PERIOD_DAYS=1 starts the audit's pace; its run a period later, when every stored day
 * is due, must repair every drifted day; verify then agrees. Figures: the audit's requests
 * beside the run's own, and, with the default period, the audit's share of the requests of a day
 * of runs every 15 minutes. And what proving a day costs in CPU: its listing read (the simulator serving it too,
 * in this process) and, beyond it, the proof itself (normalizing the listed records, reading the
 * stored rows, comparing).
 */
import Database from "better-sqlite3";
import { PosApiClient } from "../src/api/client.js";
import { HttpTransport } from "../src/api/transport.js";
import { SETTINGS } from "../src/config/settings.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import { createLogger } from "../src/log.js";
import { proveDay } from "../src/proof/day-proof.js";
import { runVerify } from "../src/proof/verify.js";
import { keyFingerprint } from "../src/secrets.js";
import { type Simulator, startSimulator } from "../src/simulator/server.js";
import { DAY_STREAM_DESCRIPTIONS, readDays } from "../src/streams/index.js";
import { runSync } from "../src/sync/run.js";
import type { RunResult } from "../src/sync/run-result.js";
import { dec, int, log, now, seconds } from "./lib.js";
import { simulatorConfig, syncSimulator } from "./simulator-sync.js";

const LAST_DAY = "2026-11-22";
const DRIFT_SHARE = 0.01;
const RUN_EVERY_MS = 15 * 60_000;

export interface AuditResult {
  locations: number;
  days: number;
  drifted: number;
  repaired: number;
  verified: boolean;
  firstRun: { requests: number; auditRequests: number; auditedDays: number; seconds: number };
  steady: { runs: number; requests: number; auditRequests: number; share: number };
  /** CPU per day-stream proved, in ms: reading its listing, and the proof beyond it. */
  proof: { days: number; listingMs: number; proofMs: number };
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

/** Every stored day of every location read, then proved, one at a time: the CPU of each pass. */
async function proofCost(simulator: Simulator, path: string): Promise<AuditResult["proof"]> {
  const config = simulatorConfig(simulator, path);
  const logger = createLogger({ level: "silent" });
  const reader = SqliteDestination.open(path);
  const transport = new HttpTransport({ baseUrl: config.apiUrl, concurrency: 1, logger });
  try {
    const days: { client: PosApiClient; locationId: string; day: string }[] = [];
    for (const { apiKey } of config.locations) {
      const client = new PosApiClient(transport, { apiKey, authScheme: "", paths: config.paths });
      const location = await reader.storedLocationOfKey(keyFingerprint(apiKey));
      if (!location) throw new Error("a location was not synced");
      const windows = await reader.provedWindows(location.id, LAST_DAY);
      for (const { day } of windows.filter((w) => w.stream === "orders"))
        days.push({ client, locationId: location.id, day });
    }
    const listing = process.cpuUsage();
    for (const { client, day } of days)
      for (const stream of DAY_STREAM_DESCRIPTIONS)
        for await (const _page of readDays(stream, client, { since: day, until: day }));
    const listingMs = cpuMs(listing);
    const proving = process.cpuUsage();
    for (const { client, locationId, day } of days)
      for (const stream of DAY_STREAM_DESCRIPTIONS)
        await proveDay(reader.reads, client, stream, locationId, day);
    const provingMs = cpuMs(proving);
    const n = days.length * DAY_STREAM_DESCRIPTIONS.length;
    return { days: n, listingMs: listingMs / n, proofMs: (provingMs - listingMs) / n };
  } finally {
    await transport.close();
    await reader.close();
  }
}

/** One daemon run at `at`, auditing at `periodDays`. */
async function daemonRun(
  simulator: Simulator,
  path: string,
  periodDays: number,
  at: Date,
): Promise<RunResult> {
  const destination = SqliteDestination.open(path);
  try {
    const result = await runSync({
      scope: {
        config: simulatorConfig(simulator, path),
        trigger: "daemon",
        audit: { periodDays, requests: SETTINGS.auditRequests.default },
      },
      destination,
      logger: createLogger({ level: "silent" }),
      now: () => at,
    });
    if (result.status !== "succeeded") throw new Error(`a daemon run ended ${result.status}`);
    return result;
  } finally {
    await destination.close();
  }
}

/** The drifted days (location id and day) no repair row names. */
function unrepaired(
  path: string,
  simulator: Simulator,
  drifts: { locationIndex: number; day: string }[],
) {
  const db = new Database(path, { readonly: true });
  const repaired = new Set(
    (
      db
        .prepare("SELECT location_id, day FROM history_repairs WHERE outcome = 'repaired'")
        .all() as {
        location_id: string;
        day: string;
      }[]
    ).map((r) => `${r.location_id} ${r.day}`),
  );
  db.close();
  return drifts.filter((d) => {
    const id = simulator.dataset.locations[d.locationIndex]?.location.id;
    return !repaired.has(`${id} ${d.day}`);
  });
}

export async function benchAudit(options: {
  locations: number;
  days: number;
  dir: string;
}): Promise<AuditResult> {
  const { locations, days, dir } = options;
  log(
    `9. self-healing history: ${locations} locations × ${days} days, ${DRIFT_SHARE * 100} % of the old days drifted, a daemon run with POS_AUDIT_PERIOD_DAYS=1…`,
  );
  const path = `${dir}/audit.sqlite`;
  const simulator = await startSimulator({
    seed: 23,
    locations,
    days,
    today: LAST_DAY,
    ordersPerDay: [10, 30],
  });
  try {
    const noon = new Date(`${LAST_DAY}T12:00:00.000Z`);
    await syncSimulator(simulator, path);
    const drifts = simulator.dataset.driftPastDays(DRIFT_SHARE, 4);
    // The first audit starts its pace; a period later, every stored day is due at once.
    const dayMs = 86_400_000;
    await daemonRun(simulator, path, 1, new Date(noon.getTime() + dayMs + 60_000));
    const started = now();
    const first = await daemonRun(
      simulator,
      path,
      1,
      new Date(noon.getTime() + 2 * dayMs + 60_000),
    );
    const firstSeconds = seconds(started);
    const firstAudit = first.stats.audit();
    const missed = unrepaired(path, simulator, drifts);
    const config = simulatorConfig(simulator, path);
    const reader = SqliteDestination.open(path);
    const verified = await runVerify({
      config,
      destination: reader.reads,
      logger: createLogger({ level: "silent" }),
      now: () => noon,
    }).finally(() => reader.close());
    log(
      `   ${int(drifts.length)} days drifted (${drifts.filter((d) => d.kind === "change").length} changed, ${drifts.filter((d) => d.kind === "remove").length} removed, ${drifts.filter((d) => d.kind === "add").length} added); the run a period on re-proved ${int(firstAudit?.windows ?? 0)} days in ${dec(firstSeconds)} s and repaired ${int(firstAudit?.repairs ?? 0)}; ${missed.length} drifted days left unrepaired; verify ${verified.ok ? "agrees" : "DIFFERS"}`,
    );
    log(
      `   requests: the run ${int(first.requests)}, of which the audit's proofs ${int(firstAudit?.requests ?? 0)}`,
    );

    // The default period: its first run starts the pace, then a day of runs.
    const period = SETTINGS.auditPeriodDays.default;
    const steadyFrom = noon.getTime() + 2 * dayMs + 2 * 60_000;
    await daemonRun(simulator, path, period, new Date(steadyFrom));
    let requests = 0;
    let auditRequests = 0;
    const runs = 96;
    for (let run = 1; run <= runs; run++) {
      const result = await daemonRun(
        simulator,
        path,
        period,
        new Date(steadyFrom + run * RUN_EVERY_MS),
      );
      requests += result.requests;
      auditRequests += result.stats.audit()?.requests ?? 0;
    }
    const share = auditRequests / requests;
    log(
      `   with POS_AUDIT_PERIOD_DAYS=${period}, from its first run on: ${runs} runs every 15 minutes made ${int(requests)} requests, the audit ${int(auditRequests)} of them: ${dec(share * 100)} % (< 10 %)`,
    );
    const proof = await proofCost(simulator, path);
    log(
      `   proving a stored day-stream (${int(proof.days)}, one at a time): ${dec(proof.listingMs)} ms of CPU to read its listing (the simulator's serving included), ${dec(proof.proofMs)} ms more to prove it`,
    );
    return {
      proof,
      locations,
      days,
      drifted: drifts.length,
      repaired: drifts.length - missed.length,
      verified: verified.ok,
      firstRun: {
        requests: first.requests,
        auditRequests: firstAudit?.requests ?? 0,
        auditedDays: firstAudit?.windows ?? 0,
        seconds: firstSeconds,
      },
      steady: { runs, requests, auditRequests, share },
    };
  } finally {
    await simulator.close();
  }
}
