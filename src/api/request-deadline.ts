/**
 * The deadline of one request, retries and waits included: a server that stalls a body or keeps
 * failing cannot hold a request (and the day window waiting on it) for many minutes. The clock
 * starts with the first attempt, not when the request is queued behind others.
 */
export class RequestDeadline {
  private readonly controller = new AbortController();
  private readonly onCallerAbort: () => void;
  private timer: NodeJS.Timeout | undefined;
  private fired = false;

  constructor(
    readonly ms: number,
    private readonly callerSignal: AbortSignal | undefined,
  ) {
    // A listener removed on dispose rather than AbortSignal.any: the caller's signal lives for
    // the whole run, across tens of thousands of requests.
    this.onCallerAbort = () => this.controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) this.onCallerAbort();
    else callerSignal?.addEventListener("abort", this.onCallerAbort, { once: true });
  }

  /** Aborts on the caller's signal or at the deadline: what every wait of the request obeys. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Starts the clock; later calls change nothing. */
  start(): void {
    if (this.timer !== undefined || this.fired) return;
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new Error("request deadline passed"));
    }, this.ms);
    this.timer.unref();
  }

  /** True when the deadline, and not the caller, ended the request. */
  get expired(): boolean {
    return this.fired && this.callerSignal?.aborted !== true;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener("abort", this.onCallerAbort);
  }
}
