/**
 * The daemon's status page, rendered on request by its storage (storage.ts: away from the runs'
 * writes) and kept a few seconds: a page left open on several phones, each refreshing every
 * minute, reads the database once for all of them, and requests arriving together share one
 * rendering. Kept gzipped too: a chain's calendars repeat themselves, and a year of ten
 * locations is 1.9 MB of HTML but a small fraction of that compressed.
 */
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { DaemonStorage } from "./storage.js";

/** On libuv's thread pool: compressing on the main thread would stall the run's writes. */
const gzipAsync = promisify(gzip);

export interface RenderedPage {
  html: string;
  gzipped: Buffer;
}

/** How often the served page asks the browser to reload it. */
export const PAGE_REFRESH_SECONDS = 60;
const PAGE_MAX_AGE_MS = 5_000;

export class StatusPageSource {
  private cached: { page: RenderedPage; at: number } | undefined;
  private rendering: Promise<RenderedPage> | undefined;

  constructor(
    private readonly storage: Pick<DaemonStorage, "renderStatusPage">,
    private readonly schedule: string,
    private readonly now: () => number = Date.now,
  ) {}

  render(): Promise<RenderedPage> {
    const cached = this.cached;
    if (cached && this.now() - cached.at < PAGE_MAX_AGE_MS) return Promise.resolve(cached.page);
    this.rendering ??= this.renderAfresh().finally(() => {
      this.rendering = undefined;
    });
    return this.rendering;
  }

  private async renderAfresh(): Promise<RenderedPage> {
    const html = await this.storage.renderStatusPage({
      schedule: this.schedule,
      now: new Date(this.now()),
      refreshSeconds: PAGE_REFRESH_SECONDS,
    });
    const page = { html, gzipped: await gzipAsync(html) };
    this.cached = { page, at: this.now() };
    return page;
  }
}
