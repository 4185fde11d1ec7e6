/** docs/benchmarks.md from one run's figures. */
import type { E2eResult, FloorComparison, ScenarioResult } from "./e2e.js";
import type { IngestResult } from "./ingest.js";
import { dec, int, type Machine, mb } from "./lib.js";
import type { MemoryResult } from "./memory.js";
import type { StorageResult } from "./storage.js";

/** The line of docs/benchmarks.md below which the analysis is written by hand and kept. */
export const KEPT_MARKER =
  "<!-- Everything below this line is written by hand: npm run bench -- --save keeps it. -->";

/** What docs/benchmarks.md holds below KEPT_MARKER, to carry into the next version of it. */
export function keptPart(document: string): string {
  const at = document.indexOf(KEPT_MARKER);
  return at === -1 ? "" : document.slice(at + KEPT_MARKER.length).trimStart();
}

export interface Report {
  /** The hand-written analysis below the generated figures (keptPart of the current file). */
  kept: string;
  host: Machine;
  command: string;
  quick: boolean;
  totalSeconds: number;
  ingest: IngestResult;
  e2e: E2eResult;
  memory: MemoryResult;
  storage: StorageResult;
}

/** The six questions of benchmark 6 on both layouts, and where the bytes go. */
function storageTable(storage: StorageResult): string {
  const rows = storage.queries.map((q, i) => {
    const before = storage.previousLayout.queries[i];
    return `| ${q.name} | ${dec(q.warmSeconds)} s | ${dec(q.coldSeconds)} s, ${mb(q.coldBytesRead)} | ${before ? `${dec(before.warmSeconds)} s` : ""} | ${before ? `${dec(before.coldSeconds)} s, ${mb(before.coldBytesRead)}` : ""} |`;
  });
  const tables = storage.tables
    .slice(0, 8)
    .map((t) => `${t.name} ${int(t.bytes / storage.orders)}`)
    .join(", ");
  return `Storage questions (benchmark 6; cold = a fresh connection with a 2 MB page cache, with the
bytes it read from the file):

| question | warm | cold | previous layout, warm | previous layout, cold |
|---|---|---|---|---|
${rows.join("\n")}

Bytes per order by table and index, largest first: ${tables}.`;
}

function verdict(ok: boolean): string {
  return ok ? "met" : "**not met**";
}

/** CPU per order at most this many times the floor's (floor-sync.mjs). */
const MAX_FLOOR_RATIO = 1.1;

/** The first round's CPU by thread, pos-sync's against the floor's, where /proc told it. */
function threadsOf({ syncThreads: [sync], floorThreads: [floor] }: FloorComparison): string {
  if (!sync || !floor) return "";
  return `; by thread, pos-sync's reading ${dec(sync.workers)} s, writing ${dec(sync.main)} s, helpers ${dec(sync.helpers)} s against the floor's one ${dec(floor.main)} s and helpers ${dec(floor.helpers)} s`;
}

/** A row of benchmark 3: the ratio target always; the floor's for the backfill, the memory
 * target for the chain (whatever the number of locations). */
function scenarioRow(s: ScenarioResult, maxRatio: number, floor?: FloorComparison): string {
  const rss = s.peakRss < 200 * 1024 * 1024;
  const targets = [`<= ${dec(maxRatio)} x`];
  if (floor) targets.push(`CPU <= ${dec(MAX_FLOOR_RATIO)} x the floor's`);
  if (s.locations > 1) targets.push("peak RSS < 200 MB");
  const met =
    s.ratio <= maxRatio && (!floor || floor.ratio <= MAX_FLOOR_RATIO) && (s.locations === 1 || rss);
  const cpu = floor
    ? `**${int(s.cpuMicrosPerOrder)} µs CPU per order, ${dec(floor.ratio)} x the floor's** (pos-sync ${floor.syncMicros.map(int).join(", ")} µs, the floor ${floor.floorMicros.map(int).join(", ")} µs, alternately${threadsOf(floor)})`
    : `${int(s.cpuMicrosPerOrder)} µs CPU per order`;
  return `| 3 | end to end, ${s.locations === 1 ? "one location" : `${s.locations} locations`}, ${s.days} days of ~150 orders, ${s.latencyMs} ms latency, concurrency ${s.concurrency} | ${int(s.orders)} orders, ${int(s.requests)} requests in ${dec(s.seconds)} s; network bound ${dec(s.networkBound)} s; **${dec(s.ratio)} x the bound**; ${cpu} (${dec(s.cpuSeconds)} s); peak RSS ${mb(s.peakRss)} | ${targets.join("; ")} | ${verdict(met)} |`;
}

export function benchmarkTable(r: Report): string {
  const { ingest, e2e, memory, storage } = r;
  const slowest = Math.max(...storage.queries.map((q) => q.warmSeconds));
  const date = new Date().toISOString().slice(0, 10);
  // Flat: no growth with the orders synced since the first tenth. RSS that falls once the run
  // ends is memory given back, not growth.
  const growth = Math.max(memory.rssAt.p50, memory.rssAt.p100) - memory.rssAt.p10;
  return `# Benchmarks

Measured on ${date} with \`${r.command}\` (all of them in ${dec(r.totalSeconds / 60)} minutes) on
${r.host.cores} cores (${r.host.cpu}), Node ${r.host.node}, SQLite ${r.host.sqlite}. Figures move
by 10-20 % from run to run on these shared machines; the ratios move less.

| # | benchmark | figures | target | |
|---|---|---|---|---|
| 1 | ingest, ${int(ingest.orders)} orders (${dec(ingest.rowsPerOrder)} rows each) | real path ${int(ingest.real.ordersPerSecond)} orders/s, ${int(ingest.real.rowsPerSecond)} rows/s; hand-written ${int(ingest.baseline.ordersPerSecond)} orders/s, ${int(ingest.baseline.rowsPerSecond)} rows/s; **ratio ${dec(ingest.ratio)}** | ratio >= 0.60 | ${verdict(ingest.ratio >= 0.6)} |
| 1 | plain floor | ${int(ingest.floor.rows)} one-row inserts, 10,000 per transaction: ${int(ingest.floor.rowsPerSecond)} rows/s | | |
| 2 | re-sync of the same orders | ${int(ingest.resync.ordersPerSecond)} orders/s, **${int(ingest.resync.rowsWritten)} rows written** | 0 rows | ${verdict(ingest.resync.rowsWritten === 0)} |
${scenarioRow(e2e.backfill, 2.0, e2e.floor)}
${scenarioRow(e2e.slowNetwork, 1.15)}
${scenarioRow(e2e.chain, 5.0)}
| 4 | incremental with nothing new | ${int(e2e.incremental.requests)} requests in ${dec(e2e.incremental.seconds)} s; **${int(e2e.incremental.rowsWritten)} order or report rows written** | lookback + catalog + location only, 0 rows | ${verdict(e2e.incremental.rowsWritten === 0)} |
| 6 | bytes of the backfill of benchmark 3 | **${int(e2e.bytes.withArchive)} bytes per order** with the raw archive, **${int(e2e.bytes.withoutArchive)}** without it | <= 2,000 / <= 1,200 | ${verdict(e2e.bytes.withArchive <= 2000 && e2e.bytes.withoutArchive <= 1200)} |
| 6 | storage, ${storage.locations} locations × ${storage.days} days, ${int(storage.orders)} orders | ${int(storage.bytesPerOrder)} bytes per order with the raw archive, ${int(storage.bytesPerOrderRawOff)} without it (previous layout ${int(storage.previousLayout.fileBytes / storage.orders)}) | | |
| 6 | six analyst questions, warm | slowest ${dec(slowest)} s (previous layout ${dec(Math.max(...storage.previousLayout.queries.map((q) => q.warmSeconds)))} s); each below | < 1 s each | ${verdict(slowest < 1)} |
| 5 | memory, ${int(memory.orders)} orders, no latency | ${int(memory.ordersPerSecond)} orders/s; RSS at 10 %: ${mb(memory.rssAt.p10)}, 50 %: ${mb(memory.rssAt.p50)}, 100 %: ${mb(memory.rssAt.p100)}; **peak ${mb(memory.peakRss)}** | < 200 MB, flat | ${verdict(memory.peakRss < 200 * 1024 * 1024 && growth < 30 * 1024 * 1024)} |

${storageTable(storage)}

Incremental requests: the pages of the three lookback days and of today for orders (7) and
reports (4), the location (1), the catalog (5), and nothing else.

How the real path is timed: validation, normalization, compression of the raw JSON and the
upsert, through the SQLite destination the sync's writing thread uses, in one thread (a sync
normalizes and compresses on its reading thread and hands the rows and payloads over), two
pages in flight as the sync's windows overlap; each page is written in a group of writes that commits every 250 ms, as in a
sync, and the last group commits before the clock stops. JSON.parse happens in the transport
when a page arrives and is printed apart (about 33 µs per order of this size). The
hand-written baseline inserts rows normalized beforehand with positional statements, one
transaction per page; both write to a fresh file with the same schema and pragmas.

The floor of benchmark 3 (\`bench/floor-sync.mjs\`) is a hand-written program doing the same work
as the backfill: undici, JSON.parse, pos-sync's zod schemas, one stringify and one SHA-1 per
record, positional prepared inserts into the same schema, one stored-version read per page, the
raw archive deflated with a dictionary, each day's summaries once, a checkpoint per window,
commits every 250 ms, foreign keys and the same pragmas. It runs alternately with pos-sync: the
scenario's sync, the floor, a second sync, the floor again, each into a fresh file. Each
thread's CPU is read from \`/proc/thread-self/stat\` as it ends (\`bench/cpu-at-exit.mjs\`): pos-sync's
reading thread, its writing thread and V8's and libuv's helper threads (the rest of the
process), against the floor's one thread and its helpers.

${KEPT_MARKER}
${r.kept}`;
}
