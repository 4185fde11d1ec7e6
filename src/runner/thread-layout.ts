/**
 * Which thread writes a run's database, decided here alone. A SQLite file is written by the
 * command's thread, which opens it, holds its writer lease and serves the run's writes through a
 * port (remote-destination.ts), while the run's thread reads the API: side by side on two cores
 * (one thread doing both took 12-37 % longer). PostgreSQL is written by the run's thread itself,
 * over a pool of connections: the server is the other process that works beside it.
 */
import type { Config } from "../config/config.js";

export type DatabaseWriter = "command's thread" | "run's thread";

export function databaseWriter(config: Pick<Config, "postgres">): DatabaseWriter {
  return config.postgres ? "run's thread" : "command's thread";
}
