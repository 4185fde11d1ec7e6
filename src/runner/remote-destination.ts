/**
 * The storage port across a message port, for a sync whose reading thread is not the thread that
 * holds its database (worker-runner.ts): the reading thread (HTTP, JSON, validation, normalizing)
 * and the writing thread then work side by side: one thread doing both took 12-37 % longer
 * (docs/benchmarks.md).
 *
 * Nothing here names a method of the port: the sync's side is built from the list of methods the
 * destination has, and the writing side calls whatever method a request names. Adding a method
 * to the port is an edit of the interface (db/destination.ts) and of each destination, no more.
 *
 * Calls are answered in the order the database settles them. Stream and list descriptions hold
 * functions, so they travel by name; errors travel as plain data, rebuilt on arrival, so that a
 * database failure is still a DatabaseError on the sync's side. The sync hands over at most a few
 * pages at once (PAGES_IN_HAND), so that the writing thread's queue stays short whatever the
 * concurrency.
 */
import type { MessagePort } from "node:worker_threads";
import type { SyncDestination } from "../db/destination.js";
import { DatabaseError } from "../db/errors.js";
import { CATALOG_LISTS, DAY_STREAM_DESCRIPTIONS, DEVICES } from "../streams/index.js";
import { isCrossingPage, packPage, unpackPage } from "./page-crossing.js";

/** Pages handed over and not yet written: enough to keep the writing thread busy. */
const PAGES_IN_HAND = 4;

/** What the sync's side needs to know of the destination it stands for. */
export interface DestinationShape {
  /** Where the data goes, for messages. */
  where: string;
  /** The names of the destination's methods (methodsOf). */
  methods: readonly string[];
}

interface Request {
  id: number;
  method: string;
  args: unknown[];
}

/** An error as it crosses: enough to rebuild what the sync tells apart. */
export interface CrossingError {
  database: boolean;
  name: string;
  message: string;
  code?: string;
  retryable?: boolean;
}

type Reply =
  | { type: "answer"; id: number; value: unknown }
  | { type: "failure"; id: number; error: CrossingError };

/** The methods of a destination, as its class declares them. */
export function methodsOf(destination: object): string[] {
  const names = new Set<string>();
  for (
    let proto = Object.getPrototypeOf(destination);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (name !== "constructor" && typeof descriptor?.value === "function") names.add(name);
    }
  }
  return [...names];
}

// Descriptions by name and names by description: every stream and list the sync can hand over.
const DESCRIPTIONS = new Map<string, object>();
for (const description of [...DAY_STREAM_DESCRIPTIONS, ...CATALOG_LISTS, DEVICES]) {
  if (DESCRIPTIONS.has(description.name))
    throw new Error(`two streams or lists are named ${description.name}`);
  DESCRIPTIONS.set(description.name, description);
}
const NAMES = new Map([...DESCRIPTIONS].map(([name, description]) => [description, name]));

/** A description as it crosses. */
interface Described {
  described: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}

/** An argument with its descriptions (itself, or a property of it) replaced by their names, and
 * a page's records packed (page-crossing.ts). */
function encode(value: unknown): unknown {
  if (Array.isArray(value)) return packPage(value);
  const name = NAMES.get(value as object);
  if (name !== undefined) return { described: name } satisfies Described;
  if (!isPlainObject(value)) return value;
  const entries = Object.entries(value);
  if (!entries.some(([, v]) => NAMES.has(v as object))) return value;
  return Object.fromEntries(entries.map(([k, v]) => [k, encode(v)]));
}

function isDescribed(value: unknown): value is Described {
  return (
    isPlainObject(value) && typeof value.described === "string" && Object.keys(value).length === 1
  );
}

/** An argument as encode left it, its descriptions found again by name. */
function decode(value: unknown): unknown {
  if (isCrossingPage(value)) return unpackPage(value);
  if (isDescribed(value)) {
    const description = DESCRIPTIONS.get(value.described);
    if (!description) throw new Error(`no stream or list is named ${value.described}`);
    return description;
  }
  if (!isPlainObject(value)) return value;
  const entries = Object.entries(value);
  if (!entries.some(([, v]) => isDescribed(v))) return value;
  return Object.fromEntries(entries.map(([k, v]) => [k, decode(v)]));
}

export function toCrossing(error: unknown): CrossingError {
  if (error instanceof DatabaseError)
    return {
      database: true,
      name: error.name,
      message: error.message,
      code: error.code,
      retryable: error.retryable,
    };
  const code = (error as { code?: unknown } | null)?.code;
  return {
    database: false,
    name: error instanceof Error ? error.name : "Error",
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === "string" ? { code } : {}),
  };
}

export function fromCrossing(crossing: CrossingError): Error {
  if (crossing.database)
    return new DatabaseError(crossing.message, crossing.code ?? "UNKNOWN", crossing.retryable);
  const error = new Error(crossing.message) as Error & { code?: string };
  error.name = crossing.name;
  if (crossing.code !== undefined) error.code = crossing.code;
  return error;
}

export interface DestinationService {
  /** Commits what is in hand and closes the port; the destination stays its owner's. */
  close(): Promise<void>;
}

/**
 * Answers the calls that arrive on `port` with `destination`, each as it arrives (a call does not
 * wait for the one before it to settle, as with the destination in the sync's own thread). The
 * sync's `close` runs `release` instead: the destination stays open for its owner, who reads,
 * moves or deletes the file the moment the run answers, so what is in hand is committed first.
 */
export function serveDestination(
  port: MessagePort,
  destination: SyncDestination,
  release: () => Promise<void>,
): DestinationService {
  let released: Promise<void> | undefined;
  const releaseOnce = () => {
    released ??= release();
    return released;
  };
  const methods = destination as unknown as Record<string, (...args: unknown[]) => unknown>;
  // Async, so that a call that throws at once (an unknown stream) is answered like any other.
  const perform = async ({ method, args }: Request): Promise<unknown> => {
    if (method === "close") return releaseOnce();
    const call = methods[method];
    if (typeof call !== "function") throw new Error(`the destination has no method ${method}`);
    return call.apply(destination, args.map(decode));
  };
  const send = (reply: Reply) => port.postMessage(reply);
  port.on("message", (request: Request) => {
    perform(request).then(
      (value) => send({ type: "answer", id: request.id, value }),
      (error: unknown) => send({ type: "failure", id: request.id, error: toCrossing(error) }),
    );
  });
  return { close: () => releaseOnce().finally(() => port.close()) };
}

/** The sync's side: a destination whose every method is a call across `port`. */
export function connectDestination(port: MessagePort, shape: DestinationShape): SyncDestination {
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  /** Set once the other side is gone: every call after fails with it. */
  let lost: Error | undefined;
  let closing = false;

  const lose = () => {
    lost ??= new DatabaseError(
      `cannot write to the database ${shape.where}: the thread writing it stopped`,
      "DESTINATION_GONE",
    );
    for (const call of pending.values()) call.reject(lost);
    pending.clear();
  };
  port.on("message", (reply: Reply) => {
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    if (reply.type === "answer") call.resolve(reply.value);
    else call.reject(fromCrossing(reply.error));
  });
  port.on("close", () => {
    if (!closing) lose();
  });

  const call = (method: string, args: unknown[]) => {
    if (lost) return Promise.reject(lost);
    const id = nextId++;
    return new Promise<unknown>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      port.postMessage({ id, method, args: args.map(encode) } satisfies Request);
    });
  };

  const remote: Record<string, unknown> = {
    where: shape.where,
    pagesInHand: PAGES_IN_HAND,
  };
  for (const method of shape.methods) remote[method] = (...args: unknown[]) => call(method, args);
  // Has what is in hand committed, then lets go of the port.
  remote.close = async () => {
    if (lost) return;
    try {
      await call("close", []);
    } finally {
      closing = true;
      port.close();
    }
  };
  // Built from the method list rather than declared: the type is the destination's own.
  return remote as unknown as SyncDestination;
}
