/**
 * `POS_TEST_WAIT_SCALE`, for the project's own tests only: a factor from 0 to 1 applied to the
 * waits that exist to spare a real API — retry back-off, the wait a 429's Retry-After asks for,
 * the probe's pacing — so that a test of the command line's retries takes seconds, not minutes.
 * Unset, or anything but a number in that range, it is 1: the waits as designed. Never set it
 * against a real API.
 */
export function testWaitScale(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.POS_TEST_WAIT_SCALE?.trim();
  if (!text) return 1;
  const scale = Number(text);
  return Number.isFinite(scale) && scale >= 0 && scale <= 1 ? scale : 1;
}

/** A wait in milliseconds, shortened by that factor (read once per client, not per request). */
export function scaledWait(ms: number, scale: number): number {
  return Math.round(ms * scale);
}
