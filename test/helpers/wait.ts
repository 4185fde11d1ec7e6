/**
 * Waiting in a test for something to happen — a log line, a row, a request count — rather than
 * for a fixed time, which a loaded machine outruns. The condition is polled; the deadline only
 * ends a wait that would never end, and says what never came.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what = "a condition",
  timeoutMs = 30_000,
): Promise<void> {
  await eventually(async () => ((await condition()) ? true : undefined), what, timeoutMs);
}

/** The probe's first value other than undefined. */
export async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
