/** Running a batch of tasks so that none outlives the batch. */
import type { LimitFunction } from "p-limit";

/**
 * Runs every task under the limiter and waits for all of them, even when one fails: after a
 * failure (or once `stopped` says so) the tasks that have not started yet are skipped, and the
 * first failure is thrown when the others are done. `Promise.all` would return at the first
 * failure and leave the rest writing to a database the caller is about to close.
 */
export async function runAll<T>(
  items: readonly T[],
  limit: LimitFunction,
  run: (item: T) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<void> {
  let failure: { error: unknown } | undefined;
  await Promise.all(
    items.map((item) =>
      limit(async () => {
        if (failure || stopped()) return;
        try {
          await run(item);
        } catch (error) {
          failure ??= { error };
        }
      }),
    ),
  );
  if (failure) throw failure.error;
}
