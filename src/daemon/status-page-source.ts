/**
 * The daemon's status page, rendered on request from a reader of its own (storage.ts) and kept a
 * few seconds: a page left open on several phones, each refreshing every minute, reads the
 * database once for all of them, and requests arriving together share one rendering.
 */
import { collectStatusPage } from "../read-models/status-page.js";
import { renderStatusPage } from "../ui/status-page/page.js";
import type { DaemonStorage } from "./storage.js";

/** How often the served page asks the browser to reload it. */
export const PAGE_REFRESH_SECONDS = 60;
const PAGE_MAX_AGE_MS = 5_000;

export class StatusPageSource {
  private cached: { html: string; at: number } | undefined;
  private rendering: Promise<string> | undefined;

  constructor(
    private readonly storage: Pick<DaemonStorage, "openPageReader">,
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
    const reader = await this.storage.openPageReader();
    try {
      const data = await collectStatusPage(reader.destination, {
        schedule: this.schedule,
        now: new Date(this.now()),
      });
      const html = renderStatusPage(data, { refreshSeconds: PAGE_REFRESH_SECONDS });
      this.cached = { html, at: this.now() };
      return html;
    } finally {
      await reader.release();
    }
  }
}
