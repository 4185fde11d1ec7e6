/**
 * The normalize stage of a day page, between reading it (api/, streams/) and loading it (db/):
 * its records made rows on their location's clock, their JSON fitted to the destination's raw
 * archive (compressed with its dictionary when it has one), all on the sync's own thread, so
 * that a destination on another thread is handed rows ready to load.
 */
import pLimit from "p-limit";
import { LocalClock } from "../clock/local-clock.js";
import { CpuLane, PAGE_STEP } from "../cpu-lane.js";
import type { PageCounts, SyncDestination } from "../db/destination.js";
import { DatabaseError } from "../db/errors.js";
import { type DayPage, headerOf, prepareRecord, rowContextOf } from "../db/normalize/page.js";
import type { DayStreamTables } from "../db/normalize/stream-tables.js";
import type { ArchiveTerms } from "../db/raw/terms.js";
import type { IncomingRecord } from "../db/rules/day-page.js";
import type { DayStream } from "../vocabulary.js";
import { AheadCompressor } from "./compress-ahead.js";

/** The destination's answer for each key, asked once: a failed ask is asked again next time, and
 * so is an answer `settled` does not accept yet. */
class AskedOnce<K, V> {
  private readonly answers = new Map<K, Promise<V>>();

  constructor(private readonly settled: (answer: V) => boolean = () => true) {}

  get(key: K, ask: () => Promise<V>): Promise<V> {
    const known = this.answers.get(key);
    if (known) return known;
    const answer = ask();
    this.answers.set(key, answer);
    const forget = () => {
      if (this.answers.get(key) === answer) this.answers.delete(key);
    };
    answer.then((value) => {
      if (!this.settled(value)) forget();
    }, forget);
    return answer;
  }

  forget(key: K): void {
    this.answers.delete(key);
  }

  clear(): void {
    this.answers.clear();
  }
}

export class PageNormalizer {
  /** Each location's time zone as the destination applies it. */
  private readonly zones = new AskedOnce<string, string | null>();
  /** What each stream's records bring for the raw archive: asked again until the table has a
   * dictionary, which its first page written gives it. */
  private readonly archiveTerms = new AskedOnce<DayStream, ArchiveTerms>(
    (terms) => !terms.keep || terms.dictionary !== null,
  );
  private readonly compressor: AheadCompressor;
  /** Pages normalized and handed over, not yet stored (pagesInHand). */
  private readonly inHand: <T>(work: () => Promise<T>) => Promise<T>;

  /** `lane`: the thread's CPU lane (the transport's, cpu-lane.ts); one of its own otherwise. */
  constructor(
    private readonly destination: SyncDestination,
    private readonly lane = new CpuLane(),
  ) {
    this.compressor = new AheadCompressor(lane);
    const slots = destination.pagesInHand ? pLimit(destination.pagesInHand) : undefined;
    this.inHand = slots ? (work) => slots(work) : (work) => work();
  }

  /** Normalizes a page and has the destination store it. The page's records are taken (its
   * array is left empty) and made rows, its JSON compressed, before it waits its turn; once the
   * rows are handed over, nothing here holds them while the write is in flight. Whatever the
   * reading thread holds across a wait outlives its young generation and is promoted: holding
   * the page and its rows until the writer answered promoted 270 MB a backfill, against 165. */
  async store(stream: DayStreamTables, page: DayPage): Promise<PageCounts> {
    const { destination } = this;
    // What the rows need of the destination is asked before the page's turn in the CPU lane
    // (cpu-lane.ts): a turn that waited for the writing thread would hold up every other page.
    const [zone, terms] = await Promise.all([
      this.zones.get(page.locationId, () => destination.timeZoneOf(page.locationId)),
      this.archiveTerms.get(stream.name, () => destination.archiveTerms(stream)),
    ]);
    const clock = LocalClock.of(zone);
    const parcel = {
      records: await this.lane.turn(PAGE_STEP.rows, () =>
        this.normalize(stream, page, clock, terms),
      ),
    };
    const header = headerOf(page);
    try {
      return await this.inHand(() => destination.writePage(stream, header, unwrap(parcel)));
    } catch (error) {
      // A failed write may have rolled back a time zone applied, or a dictionary learned, with it.
      if (error instanceof DatabaseError) {
        this.zones.clear();
        this.archiveTerms.clear();
      }
      throw error;
    }
  }

  private async normalize(
    stream: DayStreamTables,
    page: DayPage,
    clock: LocalClock,
    terms: ArchiveTerms,
  ): Promise<IncomingRecord[]> {
    const context = rowContextOf(page, clock);
    const records: IncomingRecord[] = [];
    for (const valid of page.records) {
      if (this.lane.sliceOver()) await this.lane.nextSlice();
      records.push(prepareRecord(stream, valid, context));
    }
    page.records.length = 0;
    await this.compressor.prepare(records, terms);
    return records;
  }

  /** Has the destination apply a location's time zone setting; its pages are then normalized on
   * the clock it applies. */
  useTimeZone(locationId: string, timeZone: string | null) {
    this.zones.forget(locationId);
    return this.destination.useTimeZone(locationId, timeZone);
  }
}

/** A parcel's records, handed over once: the parcel keeps nothing. */
function unwrap(parcel: { records: IncomingRecord[] }): IncomingRecord[] {
  const { records } = parcel;
  parcel.records = [];
  return records;
}
