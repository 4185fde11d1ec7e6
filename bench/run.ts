/**
 * `npm run bench`: the benchmarks of pos-sync, figures printed, measured in one run.
 *   --quick     smaller sizes (a few minutes)
 *   --save      also write docs/benchmarks.md
 *   --only NAME only one benchmark (ingest, e2e, memory, storage, postgres, history,
 *               status-page, audit, chain-year or bi-year), for a quick look
 *   --file PATH with --only storage: measure this synced file instead of syncing one
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchAudit } from "./audit.js";
import { biTargets } from "./bi-year.js";
import { benchChainYear, yearTargets } from "./chain-year.js";
import { benchEndToEnd } from "./e2e.js";
import { benchHistory } from "./history.js";
import { benchIngest } from "./ingest.js";
import { dec, int, log, machine, mb, now, seconds } from "./lib.js";
import { benchMemory } from "./memory.js";
import { benchPostgres } from "./postgres.js";
import { benchmarkTable, keptPart } from "./report.js";
import { benchStatusPage } from "./status-page.js";
import { benchStorage, measureFile } from "./storage.js";

const quick = process.argv.includes("--quick");
const save = process.argv.includes("--save");
/** The value after a flag, or undefined when the flag is not given. */
function flagValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}
const only = flagValue("--only");
const sizes = quick
  ? {
      orders: 20_000,
      floorRows: 200_000,
      days: 60,
      chainLocations: 20,
      memoryOrders: 200_000,
      storage: { locations: 4, days: 90 },
      workersChain: { locations: 10, days: 10, ordersPerDay: 20 },
      history: { locations: 4, days: 60, steps: 14 },
      statusPage: { locations: 4, days: 90 },
      audit: { locations: 10, days: 90 },
      chainYear: { locations: 5, days: 180 },
    }
  : {
      orders: 100_000,
      floorRows: 1_000_000,
      days: 180,
      chainLocations: 60,
      memoryOrders: 1_000_000,
      storage: { locations: 20, days: 365 },
      workersChain: { locations: 40, days: 30, ordersPerDay: 20 },
      history: { locations: 10, days: 120, steps: 30 },
      statusPage: { locations: 10, days: 365 },
      audit: { locations: 60, days: 365 },
      chainYear: { locations: 20, days: 365 },
    };

const dir = mkdtempSync(join(tmpdir(), "pos-sync-bench-"));
const started = now();
const host = machine();
log(
  `pos-sync benchmarks${quick ? " (quick)" : ""}: ${host.cores} cores (${host.cpu}), Node ${host.node}, SQLite ${host.sqlite}`,
);
log();
try {
  const file = flagValue("--file");
  if (only === "storage" && file) measureFile(file, dir);
  else if (only === "storage") await benchStorage({ ...sizes.storage, dir });
  else if (only === "e2e")
    await benchEndToEnd({ days: sizes.days, chainLocations: sizes.chainLocations, dir });
  else if (only === "memory") await benchMemory({ orders: sizes.memoryOrders, dir });
  else if (only === "ingest")
    await benchIngest({ orders: sizes.orders, floorRows: sizes.floorRows, dir });
  else if (only === "postgres")
    await benchPostgres({ orders: sizes.orders, chain: sizes.workersChain, dir });
  else if (only === "history") await benchHistory({ ...sizes.history, dir });
  else if (only === "status-page") await benchStatusPage({ ...sizes.statusPage, dir });
  else if (only === "audit") await benchAudit({ ...sizes.audit, dir });
  else if (only === "chain-year") await benchChainYear({ ...sizes.chainYear, dir });
  else if (only === "bi-year") await benchChainYear({ ...sizes.chainYear, dir, withBiReads: true });
  else await runAll();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function runAll(): Promise<void> {
  const ingest = await benchIngest({ orders: sizes.orders, floorRows: sizes.floorRows, dir });
  log();
  const e2e = await benchEndToEnd({
    days: sizes.days,
    chainLocations: sizes.chainLocations,
    dir,
  });
  log();
  const memory = await benchMemory({ orders: sizes.memoryOrders, dir });
  log();
  const storage = await benchStorage({ ...sizes.storage, dir });
  log();
  const postgres = await benchPostgres({ orders: sizes.orders, chain: sizes.workersChain, dir });
  log();
  const history = await benchHistory({ ...sizes.history, dir });
  log();
  const statusPage = await benchStatusPage({ ...sizes.statusPage, dir });
  log();
  const audit = await benchAudit({ ...sizes.audit, dir });
  log();
  const year = await benchChainYear({ ...sizes.chainYear, dir, withBiReads: true });
  const total = seconds(started);
  log();
  log(`all of them in ${dec(total / 60)} minutes`);
  log(
    `targets: ingest ratio ${dec(ingest.ratio)} (>= 0.60); end to end ${dec(e2e.backfill.ratio)} x the network bound (<= 2.00), ${dec(e2e.slowNetwork.ratio)} x at 100 ms (<= 1.15), ${dec(e2e.chain.ratio)} x for ${e2e.chain.locations} locations (<= 5.00);`,
  );
  log(
    `  CPU ${int(e2e.backfill.cpuMicrosPerOrder)} µs per order, ${dec(e2e.floor.ratio)} x the floor's (<= 1.10); chain peak RSS ${mb(e2e.chain.peakRss)} (< 200 MB)`,
  );
  log(
    `  no-change run ${e2e.incremental.requests} requests, ${e2e.incremental.rowsWritten} rows written; peak RSS ${mb(memory.peakRss)} (< 200 MB)`,
  );
  log(
    `  backfill ${int(e2e.bytes.withArchive)} bytes per order (<= 2,000), ${int(e2e.bytes.withoutArchive)} without the raw archive (<= 1,200); storage ${int(storage.bytesPerOrder)} and ${int(storage.bytesPerOrderRawOff)} at ${storage.locations} locations; slowest question ${dec(Math.max(...storage.queries.map((q) => q.warmSeconds)))} s warm (< 1)`,
  );
  const twoWorkers = postgres.workers.runs.find((r) => r.workers === 2);
  log(
    `  PostgreSQL ingest ${dec(postgres.ingest.ratio)} x SQLite (>= 0.80); 2 workers ${dec(twoWorkers?.speedUp ?? Number.NaN)} x one (>= 1.80)`,
  );
  log(
    `  order history ${dec(history.steadyStateShare * 100)} % more bytes per order with every change seen (<= 10 %)`,
  );
  log(
    `  audit: ${audit.repaired} of ${audit.drifted} drifted days repaired in the first run, verify ${audit.verified ? "agrees" : "differs"}; ${dec(audit.steady.share * 100)} % of a day's requests with the default period (< 10 %)`,
  );
  log(
    `  status page ${int(statusPage.inWorkerMs)} ms in a worker, the writer's thread stalled ${dec(statusPage.inWorkerStallMs)} ms at most`,
  );
  log(`  a year of ${year.locations} locations: ${yearTargets(year)}`);
  log(`  BI at a year of ${year.locations} locations: ${biTargets(year.bi ?? [])}`);
  if (save) {
    const command = `npm run bench${quick ? " -- --quick" : ""}`;
    const path = join(import.meta.dirname, "..", "docs", "benchmarks.md");
    const kept = existsSync(path) ? keptPart(readFileSync(path, "utf8")) : "";
    writeFileSync(
      path,
      benchmarkTable({
        kept,
        host,
        command,
        quick,
        totalSeconds: total,
        ingest,
        e2e,
        memory,
        storage,
      }),
    );
    log("wrote docs/benchmarks.md");
  }
  log(
    `(${int(sizes.orders)} ingest orders, ${sizes.days} end-to-end days, ${sizes.chainLocations} chain locations, ${int(sizes.memoryOrders)} memory orders, ${sizes.storage.locations} locations x ${sizes.storage.days} storage days)`,
  );
}
