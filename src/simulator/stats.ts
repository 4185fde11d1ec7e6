/** What the simulator has been asked and what it answered, for tests and benchmarks. */
import { OPERATIONS, type Operation } from "./operations.js";

export type FaultCounter = "serverError" | "rateLimited" | "dropped" | "delayed" | "malformed";

export interface StatsSnapshot {
  total: number;
  byOperation: Record<Operation, number>;
  byStatus: Record<string, number>;
  faults: Record<FaultCounter, number>;
  unrouted: number;
  /** The most requests the simulator was serving at the same time. */
  maxInFlight: number;
}

function zeroOperations(): Record<Operation, number> {
  return Object.fromEntries(OPERATIONS.map((op) => [op, 0])) as Record<Operation, number>;
}

function zeroFaults(): Record<FaultCounter, number> {
  return { serverError: 0, rateLimited: 0, dropped: 0, delayed: 0, malformed: 0 };
}

export class RequestStats {
  private snapshotData: StatsSnapshot = this.empty();
  private inFlight = 0;

  private empty(): StatsSnapshot {
    return {
      total: 0,
      byOperation: zeroOperations(),
      byStatus: {},
      faults: zeroFaults(),
      unrouted: 0,
      maxInFlight: 0,
    };
  }

  request(operation: Operation | undefined): void {
    this.snapshotData.total++;
    if (operation) this.snapshotData.byOperation[operation]++;
    else this.snapshotData.unrouted++;
  }

  /** A request started being served; call the returned function when it is done. */
  started(): () => void {
    this.inFlight++;
    this.snapshotData.maxInFlight = Math.max(this.snapshotData.maxInFlight, this.inFlight);
    let done = false;
    return () => {
      if (!done) this.inFlight--;
      done = true;
    };
  }

  status(status: number): void {
    const key = String(status);
    this.snapshotData.byStatus[key] = (this.snapshotData.byStatus[key] ?? 0) + 1;
  }

  fault(counter: FaultCounter, count = 1): void {
    this.snapshotData.faults[counter] += count;
  }

  /** A copy of the counters so far. */
  snapshot(): StatsSnapshot {
    return structuredClone(this.snapshotData);
  }

  reset(): void {
    this.snapshotData = this.empty();
  }
}
