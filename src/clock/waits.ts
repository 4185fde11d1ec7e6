/**
 * The waits that exist to spare a real API or mail server — retry back-off, the wait a 429's
 * Retry-After asks for, the probe's pacing, the outbox's retries and how often it looks — as a
 * share of the designed ones, from 0 to 1. The program's entry decides it once and hands it
 * down (CommandIo.waitScale): the shipped command line (src/cli/cli.ts) waits them whole; the
 * project's tests run the same program through an entry of their own that waits a hundredth,
 * so that a child retrying against an unreachable API gives up in a second, not minutes. It
 * travels as a number, so that it crosses to a worker thread as it is.
 */

/** The waits as designed: what the shipped program waits. */
export const DESIGNED_WAITS = 1;

/** A wait in milliseconds, shortened by the scale. */
export function scaledWait(ms: number, scale: number): number {
  return Math.round(ms * scale);
}
