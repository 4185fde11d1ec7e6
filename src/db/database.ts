/**
 * One database as the commands, the runner and the daemon use it, whichever it is: each dialect's
 * folder exports one factory implementing this (sqlite/factory.ts, pg/factory.ts), and choose.ts
 * picks one from the settings, the only place that does. What differs between them is said by
 * their capabilities (where a run's writes are made, where the status page is read), never by
 * asking which database it is.
 */
import type { Config } from "../config/config.js";
import type { Logger } from "../log.js";
import type { AlertStore } from "./deliveries/alerts.js";
import type { DeliveryStore } from "./deliveries/deliveries.js";
import type { KeptBesideRows, SyncDestination } from "./destination.js";
import type { Reader } from "./reads/reader.js";
import type { UpgradeProgress } from "./upgrade-progress.js";

/** The settings that name the database. */
export type DatabaseSettings = Pick<Config, "dbPath" | "postgres">;

/**
 * Which thread writes a run's database. A SQLite file is written by the command's thread, which
 * opens it, holds its writer lease and serves the run's writes through a port
 * (runner/remote-destination.ts), while the run's thread reads the API: side by side on two
 * cores (one thread doing both took 12-37 % longer). PostgreSQL is written by the run's thread
 * itself, over a pool of connections: the server is the other process that works beside it.
 */
export type RunWriter = "command's thread" | "run's thread";

export interface Capabilities {
  writer: RunWriter;
  /** The daemon renders its status page on a thread of its own through a read-only connection,
   * so that a chain's page never holds the runs' writes up (SQLite); otherwise through its
   * reader, whose queries wait off the thread (PostgreSQL). */
  statusPageThread: boolean;
}

/** What a run's destination keeps beside the rows, and its connections. */
export interface RunDestinationOptions extends KeptBesideRows {
  /** Connections for the writes, where the database has several: the run's concurrency. */
  poolSize: number;
}

/** A destination served to a run on another thread, by the thread that holds the database. */
export interface ServedDestination extends SyncDestination {
  /** Commits the writes in hand. */
  commit(): Promise<void>;
  /** Records this process's unfinished runs as failed, with what ended their thread. */
  failUnfinishedRuns(error: string, now: string): Promise<void>;
}

/** The database held by the command's thread for runs whose writes cross to it (SQLite). */
export interface HeldDatabase {
  readonly where: string;
  /** Reads on the held connection: what the runs wrote, committed or not. */
  readonly reads: Reader;
  /** A destination over the held connection for one run; the sync compresses the records' JSON
   * ahead when `compressAhead` (sync/compress-ahead.ts). */
  destinationForRun(options: KeptBesideRows & { compressAhead: boolean }): ServedDestination;
}

/** A command's hold on the database for its runs: the held database where runs write through
 * this thread (with the lease that keeps other writers out), nothing where they write
 * themselves. */
export interface RunHold {
  readonly held?: HeldDatabase;
  /** Ends the hold: upkeep after the runs, the lease given back, the connection closed. */
  release(): void;
}

export interface RunHoldOptions {
  /** The command, as the lease records it. */
  command: string;
  logger: Logger;
  /** Aborted should another process take the database over: two writers must never overlap. */
  stop: AbortController;
  /** A long upgrade of the stored data, as it goes. */
  onUpgradeProgress?: (progress: UpgradeProgress) => void;
}

/** What the daemon holds of its database between runs. */
export interface DaemonHold {
  /** For messages: the file, or the server and schema. */
  readonly name: string;
  /** Before a run: the held database the run writes through, if the runs write through this
   * thread. */
  beforeRun(): { held?: HeldDatabase };
  /** After a run: a failed one leaves a connection that is opened afresh. */
  afterRun(failed: boolean): void;
  /** What status and the metrics read. */
  readable(): Reader;
  /** Where the daemon records what it sends: between runs, never during one. */
  messages(): { deliveries: DeliveryStore; alerts: AlertStore };
  /** While idle: upkeep (SQLite truncates its WAL). */
  idle(): void;
  /** Whether another process took the database over (SQLite's lease); the daemon then exits 1. */
  readonly lost: boolean;
  close(): Promise<void>;
}

export interface DaemonHoldOptions {
  logger: Logger;
  /** Aborted should another process take the database over. */
  stop: AbortController;
  /** How often a WAL truncation that a reader blocked is tried again. */
  walRetryMs: number;
}

/** The database as `report --send` holds it: a reader for the report, and the outbox. */
export interface OutboxStorage {
  reader: Reader;
  deliveries: DeliveryStore;
  close(): Promise<void>;
}

/** The raw archive read back: each record's JSON as received. */
export interface RawDocuments {
  /** The archived JSON of a record (of one location, or of every location that has it). */
  documents(table: string, id: string, locationId?: string): Promise<string[]>;
  close(): Promise<void>;
}

/** The demo's own database file (SQLite). */
export interface DemoFile {
  /** Makes the path ready for the demo: a database the demo made, new or from an earlier run
   * (`fresh` deletes one first); any other file is refused, left as it was. */
  prepare(path: string, fresh: boolean): Promise<void>;
}

export interface Database {
  readonly capabilities: Capabilities;
  /** For reading only: the database must exist at this version's schema, is never created nor
   * migrated, and is refused otherwise. `trusted`: the caller holds it migrated (the daemon),
   * so it is not checked again. */
  openReader(settings: DatabaseSettings, options?: { trusted?: boolean }): Promise<Reader>;
  /** A destination of the run's own (the run's thread writes it), migrating first. */
  openDestination(
    settings: DatabaseSettings,
    options: RunDestinationOptions,
  ): Promise<SyncDestination>;
  /** Holds the database for a command's runs (created and migrated when needed). */
  holdForRuns(settings: DatabaseSettings, options: RunHoldOptions): Promise<RunHold>;
  /** Holds the database for the daemon's life. */
  holdForDaemon(settings: DatabaseSettings, options: DaemonHoldOptions): Promise<DaemonHold>;
  /** Creates or upgrades the database; says which it did, in a sentence. */
  migrate(
    settings: DatabaseSettings,
    onProgress: (progress: UpgradeProgress) => void,
  ): Promise<string>;
  /** A database sync made, at this version's schema (refused otherwise, exit 2), with its outbox
   * open for writing, for `report --send`: never created, migrated nor held with the writer
   * lease. A report from cron is no time to upgrade a database a daemon of another version may
   * be using; and the outbox is made for several processes (each message taken by one of them
   * before it is sent), so a daemon running meanwhile is no reason to refuse. */
  openOutbox(settings: DatabaseSettings): Promise<OutboxStorage>;
  openRawDocuments(settings: DatabaseSettings): Promise<RawDocuments>;
  /** A failure of a run, in words the user can act on (a failing disk named as sync names it);
   * undefined when the database has nothing to add. */
  failureMessage(error: unknown, settings: DatabaseSettings): string | undefined;
  /** Present where the demo may make a database of its own. */
  readonly demoFile?: DemoFile;
}
