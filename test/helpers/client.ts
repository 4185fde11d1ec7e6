/** An API client pointed at a test simulator, with fast retries and captured logs. */
import { type ClientOptions, PosApiClient } from "../../src/api/client.js";
import { ApiError } from "../../src/api/errors.js";
import { HttpTransport, type TransportOptions } from "../../src/api/transport.js";
import type { Simulator } from "../../src/simulator/server.js";
import { CATALOG_LISTS, readList } from "../../src/streams/index.js";
import { type CapturedLogger, captureLogs } from "./logs.js";

export interface TestClient {
  client: PosApiClient;
  transport: HttpTransport;
  logs: CapturedLogger;
}

export const FAST_RETRY = { retries: 4, minDelayMs: 5, maxDelayMs: 50, maxRetryAfterMs: 5_000 };

export function testClient(
  simulator: Simulator,
  options: {
    client?: Partial<ClientOptions>;
    transport?: Partial<TransportOptions>;
    keyIndex?: number;
  } = {},
): TestClient {
  const logs = captureLogs();
  const transport = new HttpTransport({
    baseUrl: simulator.url,
    concurrency: 4,
    retry: FAST_RETRY,
    timeouts: { connectMs: 2_000, headersMs: 5_000, bodyMs: 5_000 },
    logger: logs.logger,
    ...options.transport,
  });
  const client = new PosApiClient(transport, {
    apiKey: simulator.keys[options.keyIndex ?? 0] as string,
    ...options.client,
  });
  return { client, transport, logs };
}

/** The ApiError a request ends with; fails the test when it succeeds or fails otherwise. */
export async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the request to fail");
}

/** Reads one catalog list by the API's name of it ("products", "paymentMethods"). */
export function readCatalogList(client: PosApiClient, name: string) {
  const list = CATALOG_LISTS.find((candidate) => candidate.name === name);
  if (!list) throw new Error(`no catalog list named ${name}`);
  return readList(list, client);
}
