/**
 * The connection a worker keeps open for its whole run: it holds the session-level advisory
 * locks (the run's, the locations'), which die with it. Its statements take turns: one
 * connection runs one statement at a time, and the locations claimed side by side would
 * otherwise queue theirs on it behind the driver's back.
 */
import pLimit from "p-limit";
import type { PgClient } from "./connect.js";

export class LockSession {
  private readonly turn = pLimit(1);

  constructor(private readonly client: PgClient) {}

  /** Runs `work` on the session once the statements before it are done. */
  use<T>(work: (client: PgClient) => Promise<T>): Promise<T> {
    return this.turn(() => work(this.client));
  }

  release(): void {
    this.client.release();
  }
}
