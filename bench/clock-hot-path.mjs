/**
 * The sync's hot path on a location's clock: each order's API timestamp parsed and put on its
 * location's clock (Europe/Paris: its local day and hour), by pos-sync's own code (src/clock/,
 * built into dist/) against the libraries that could replace it — Luxon, date-fns-tz and the two
 * Temporal polyfills. Every way is checked to give the same day and hour first; then each is
 * timed in turn, round after round, so that a machine's drift falls on all alike.
 *
 * The libraries are no dependency of pos-sync: install them anywhere and name the folder,
 *   npm install --prefix /tmp/clock-libs luxon date-fns date-fns-tz @js-temporal/polyfill temporal-polyfill
 *   CLOCK_BENCH_LIBS=/tmp/clock-libs node bench/clock-hot-path.mjs
 * Without CLOCK_BENCH_LIBS, or without one of them, only what is found is timed. `npm run build`
 * first.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { LocalClock } from "../dist/clock/local-clock.js";
import { localMoment } from "../dist/clock/local-moment.js";

const ZONE = "Europe/Paris";
const ORDERS = 200_000;
const ROUNDS = 7;

/** A year of orders' closing times, every 157 s, half written in UTC and half in Paris's offset. */
function timestamps() {
  const paris = new LocalClock(ZONE);
  const start = Date.parse("2026-01-01T00:00:00Z");
  const out = [];
  for (let i = 0; i < ORDERS; i++) {
    const ms = start + i * 157_000;
    if (i % 2 === 0) out.push(new Date(ms).toISOString());
    else {
      const offset = paris.offsetMinutesAt(ms);
      const local = new Date(ms + offset * 60_000).toISOString().slice(0, 23);
      const sign = offset < 0 ? "-" : "+";
      const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
      out.push(`${local}${sign}${hours}:${String(Math.abs(offset) % 60).padStart(2, "0")}`);
    }
  }
  return out;
}

/** The ways, each a function from a timestamp to "YYYY-MM-DD HH" on the Paris clock. */
async function ways() {
  const found = {};
  const clock = LocalClock.of(ZONE);
  // What the sync does: the hour by hourOf (normalize/order.ts), the day by localMoment with the
  // zone's offset at the instant (local-moment.ts).
  found["pos-sync (src/clock)"] = (ts) => {
    const moment = localMoment(ts, clock.offsetMinutesAt(Date.parse(ts)));
    return `${moment.day} ${String(clock.hourOf(ts)).padStart(2, "0")}`;
  };
  const folder = process.env.CLOCK_BENCH_LIBS;
  if (!folder) return found;
  const require = createRequire(`${folder}/package.json`);
  const load = async (name) => {
    try {
      return await import(require.resolve(name));
    } catch {
      process.stdout.write(`(${name} not found in ${folder}: left out)\n`);
      return undefined;
    }
  };
  const luxon = await load("luxon");
  if (luxon) {
    const { DateTime } = luxon;
    found[`luxon ${version(folder, "luxon")}`] = (ts) =>
      DateTime.fromISO(ts, { zone: ZONE }).toFormat("yyyy-MM-dd HH");
  }
  const fnsTz = await load("date-fns-tz");
  if (fnsTz) {
    // toZonedTime gives a Date whose fields in this process's zone are the wall clock's.
    const { toZonedTime } = fnsTz;
    const two = (n) => String(n).padStart(2, "0");
    found[`date-fns-tz ${version(folder, "date-fns-tz")}`] = (ts) => {
      const wall = toZonedTime(ts, ZONE);
      return `${wall.getFullYear()}-${two(wall.getMonth() + 1)}-${two(wall.getDate())} ${two(wall.getHours())}`;
    };
  }
  for (const name of ["@js-temporal/polyfill", "temporal-polyfill"]) {
    const module = await load(name);
    if (!module) continue;
    const { Temporal } = module;
    found[`${name} ${version(folder, name)}`] = (ts) => {
      const zoned = Temporal.Instant.from(ts).toZonedDateTimeISO(ZONE);
      return `${zoned.toPlainDate().toString()} ${String(zoned.hour).padStart(2, "0")}`;
    };
  }
  return found;
}

function version(folder, name) {
  try {
    return JSON.parse(readFileSync(join(folder, "node_modules", name, "package.json"), "utf8"))
      .version;
  } catch {
    return "";
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const input = timestamps();
const candidates = await ways();
const expected = input.map(candidates["pos-sync (src/clock)"]);
for (const [name, way] of Object.entries(candidates)) {
  const wrong = input.findIndex((ts, i) => way(ts) !== expected[i]);
  if (wrong >= 0)
    throw new Error(`${name}: ${input[wrong]} gives ${way(input[wrong])}, not ${expected[wrong]}`);
}
const times = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++)
  for (const [name, way] of Object.entries(candidates)) {
    const started = process.hrtime.bigint();
    let sink = 0;
    for (const ts of input) sink += way(ts).length;
    const ns = Number(process.hrtime.bigint() - started);
    if (sink === 0) throw new Error("nothing computed");
    times[name].push(ns / input.length);
  }
const lines = [
  `${ORDERS} orders' timestamps on ${ZONE}'s clock, node ${process.version}, median of ${ROUNDS} rounds:`,
];
const base = median(times["pos-sync (src/clock)"]);
for (const [name, perOrder] of Object.entries(times)) {
  const ns = median(perOrder);
  lines.push(
    `  ${name.padEnd(32)} ${ns.toFixed(0).padStart(6)} ns an order  (${(ns / base).toFixed(1)} x)`,
  );
}
process.stdout.write(`${lines.join("\n")}\n`);
