/**
 * The daemon's status page, rendered on request by its storage (storage.ts: away from the runs'
 * writes) and kept a few seconds: a page left open on several phones, each refreshing every
 * minute, reads the database once for all of them, and requests arriving together share one
 * rendering.
 */
import type { DaemonStorage } from "./storage.js";

/** How often the served page asks the browser to reload it. */
export const PAGE_REFRESH_SECONDS = 60;
const PAGE_MAX_AGE_MS = 5_000;

export class StatusPageSource {
  private cached: { html: string; at: number } | undefined;
  private rendering: Promise<string> | undefined;

  constructor(
    private readonly storage: Pick<DaemonStorage, "renderStatusPage">,
    private readonly schedule: string,
    private readonly now: () => number = Date.now,
  ) {}

  render(): Promise<string> {
    const cached = this.cached;
    if (cached && this.now() - cached.at < PAGE_MAX_AGE_MS) return Promise.resolve(cached.html);
    this.rendering ??= this.renderAfresh().finally(() => {
      this.rendering = undefined;
    });
    return this.rendering;
  }

  private async renderAfresh(): Promise<string> {
    const html = await this.storage.renderStatusPage({
      schedule: this.schedule,
      now: new Date(this.now()),
      refreshSeconds: PAGE_REFRESH_SECONDS,
    });
    this.cached = { html, at: this.now() };
    return html;
  }
}
