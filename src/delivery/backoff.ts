/** When the outbox tries a message again: a minute after its first failure, then twice as long
 * after each, at most an hour apart, for as long as it takes. Nothing is dropped: a message owed
 * is sent once the server or the setting is right again. */

export const FIRST_RETRY_MS = 60_000;
export const LONGEST_RETRY_MS = 3_600_000;

/** The wait after the `attempts`-th failed attempt (1 for the first). */
export function retryDelayMs(attempts: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}
