/** When the outbox tries a message again after a failure that may pass: a minute after the
 * first, then twice as long after each, at most an hour apart, for as long as it takes: a message
 * owed is sent once the server is back. A refusal for good is not retried (settle.ts). */

export const FIRST_RETRY_MS = 60_000;
export const LONGEST_RETRY_MS = 3_600_000;

/** The wait after the `attempts`-th failed attempt (1 for the first). */
export function retryDelayMs(attempts: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}
