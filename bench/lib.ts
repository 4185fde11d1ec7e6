/** Shared by the benchmarks: timing, formatting, the machine, process memory. */
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import Database from "better-sqlite3";

export function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export const now = () => process.hrtime.bigint();

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat("en-US", {
  maximumFractionDigits: 2,
  minimumFractionDigits: 2,
});

export function int(value: number): string {
  return integer.format(value);
}

export function dec(value: number): string {
  return decimal.format(value);
}

export function mb(bytes: number): string {
  return `${dec(bytes / 1024 / 1024)} MB`;
}

export interface Machine {
  cores: number;
  cpu: string;
  node: string;
  sqlite: string;
}

export function machine(): Machine {
  const db = new Database(":memory:");
  const sqlite = db.prepare("SELECT sqlite_version()").pluck().get() as string;
  db.close();
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? "unknown",
    node: process.version,
    sqlite,
  };
}

/** Resident and peak resident memory of a process, from /proc (Linux). */
export function processMemory(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
    return { rss: field("VmRSS"), peak: field("VmHWM") };
  } catch {
    return undefined;
  }
}

export function log(line = ""): void {
  process.stdout.write(`${line}\n`);
}

/** A synced file's bytes per order, with its raw archive and without it (SQLite's dbstat). */
export function bytesPerOrder(path: string): { withArchive: number; withoutArchive: number } {
  const db = new Database(path);
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
    const orders = Number(db.prepare("SELECT COUNT(*) FROM orders").pluck().get());
    const pages = (names: string) =>
      Number(
        db.prepare(`SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE ${names}`).pluck().get(),
      );
    const file = pages("1");
    const archive = pages("name LIKE '%raw_records%' OR name = 'raw_dictionaries'");
    return { withArchive: file / orders, withoutArchive: (file - archive) / orders };
  } finally {
    db.close();
  }
}
