/** Starting the simulator for a test file, and plain HTTP calls to it. */
import { afterAll, beforeAll } from "vitest";
import {
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from "../../src/simulator/server.js";

/** A fixed "today" keeps every test's data identical from run to run. */
export const TEST_TODAY = "2026-03-15";

export const SMALL_DATASET: SimulatorOptions = {
  seed: 42,
  locations: 2,
  days: 12,
  today: TEST_TODAY,
  ordersPerDay: [40, 80],
};

/** Starts a simulator before the file's tests and closes it after; read `.current` inside tests. */
export function useSimulator(options: Partial<SimulatorOptions> = {}): { current: Simulator } {
  const holder = {} as { current: Simulator };
  beforeAll(async () => {
    holder.current = await startSimulator({ ...SMALL_DATASET, ...options });
  });
  afterAll(async () => {
    await holder.current?.close();
  });
  return holder;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON bodies
  body: any;
}

export async function apiGet(
  simulator: Simulator,
  path: string,
  authorization?: string,
): Promise<ApiResponse> {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  const response = await fetch(`${simulator.url}${path}`, { headers });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === "" ? null : JSON.parse(text),
  };
}

/** Reads every page of a list with size=100 and returns the records in the order served. */
export async function readAllPages(
  simulator: Simulator,
  path: string,
  authorization: string,
): Promise<{ records: { id: string; createdAt: string }[]; totalCount: number; pages: number }> {
  const records: { id: string; createdAt: string }[] = [];
  const separator = path.includes("?") ? "&" : "?";
  let totalCount = 0;
  let pages = 0;
  for (let index = 0; index < 10_000; index++) {
    const { status, body } = await apiGet(
      simulator,
      `${path}${separator}size=100&index=${index}`,
      authorization,
    );
    if (status !== 200) throw new Error(`page ${index} answered ${status}`);
    pages++;
    totalCount = body.meta.totalCount;
    records.push(...body.data);
    if (index >= body.meta.totalPage - 1) break;
  }
  return { records, totalCount, pages };
}
