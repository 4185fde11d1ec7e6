/** docs/benchmarks.md from one run's figures. */
import type { E2eResult } from "./e2e.js";
import type { IngestResult } from "./ingest.js";
import { dec, int, type Machine, mb } from "./lib.js";
import type { MemoryResult } from "./memory.js";

export interface Report {
  host: Machine;
  command: string;
  quick: boolean;
  totalSeconds: number;
  ingest: IngestResult;
  e2e: E2eResult;
  memory: MemoryResult;
}

function verdict(ok: boolean): string {
  return ok ? "met" : "**not met**";
}

export function benchmarkTable(r: Report): string {
  const { ingest, e2e, memory } = r;
  const date = new Date().toISOString().slice(0, 10);
  const flat =
    Math.max(memory.rssAt.p10, memory.rssAt.p50, memory.rssAt.p100) -
    Math.min(memory.rssAt.p10, memory.rssAt.p50, memory.rssAt.p100);
  return `# Benchmarks

Measured on ${date} with \`${r.command}\` (all five in ${dec(r.totalSeconds / 60)} minutes) on
${r.host.cores} cores (${r.host.cpu}), Node ${r.host.node}, SQLite ${r.host.sqlite}. Figures move
by 10-20 % from run to run on these shared machines; the ratios move less.

| # | benchmark | figures | target | |
|---|---|---|---|---|
| 1 | ingest, ${int(ingest.orders)} orders (${dec(ingest.rowsPerOrder)} rows each) | real path ${int(ingest.real.ordersPerSecond)} orders/s, ${int(ingest.real.rowsPerSecond)} rows/s; hand-written ${int(ingest.baseline.ordersPerSecond)} orders/s, ${int(ingest.baseline.rowsPerSecond)} rows/s; **ratio ${dec(ingest.ratio)}** | ratio >= 0.60 | ${verdict(ingest.ratio >= 0.6)} |
| 1 | plain floor | ${int(ingest.floor.rows)} one-row inserts, 10,000 per transaction: ${int(ingest.floor.rowsPerSecond)} rows/s | | |
| 2 | re-sync of the same orders | ${int(ingest.resync.ordersPerSecond)} orders/s, **${int(ingest.resync.rowsWritten)} rows written** | 0 rows | ${verdict(ingest.resync.rowsWritten === 0)} |
| 3 | end to end, ${e2e.days} days of ~${e2e.ordersPerDay} orders, ${e2e.latencyMs} ms latency, concurrency ${e2e.concurrency} | ${int(e2e.full.orders)} orders, ${int(e2e.full.requests)} requests in ${dec(e2e.full.seconds)} s; network bound ${dec(e2e.full.networkBound)} s; **${dec(e2e.full.ratio)} x the bound**; peak RSS ${mb(e2e.full.peakRss)} | <= 1.20 x | ${verdict(e2e.full.ratio <= 1.2)} |
| 4 | incremental with nothing new | ${int(e2e.incremental.requests)} requests in ${dec(e2e.incremental.seconds)} s; **${int(e2e.incremental.rowsWritten)} order or report rows written** | lookback + catalog + location only, 0 rows | ${verdict(e2e.incremental.rowsWritten === 0)} |
| 5 | memory, ${int(memory.orders)} orders, no latency | ${int(memory.ordersPerSecond)} orders/s; RSS at 10 %: ${mb(memory.rssAt.p10)}, 50 %: ${mb(memory.rssAt.p50)}, 100 %: ${mb(memory.rssAt.p100)}; **peak ${mb(memory.peakRss)}** | < 200 MB, flat | ${verdict(memory.peakRss < 200 * 1024 * 1024 && flat < 30 * 1024 * 1024)} |

Incremental requests: per stream the three lookback days and today (4 + 4), the location (1),
the catalog (5), and nothing else.
`;
}
