/** Whether the event loop got a turn while `work` ran: a reply that arrived meanwhile could be
 * taken in (src/cpu-lane.ts). Work that never lets the loop run ends before it. */
export async function loopTurnedDuring(work: () => Promise<unknown>): Promise<boolean> {
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  await work();
  return turned;
}
