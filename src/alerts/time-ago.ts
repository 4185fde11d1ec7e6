/** How long ago, as an alert and /healthz say it: minutes under an hour, hours after. */
export function hoursAgo(at: string, now: Date): string {
  const hours = (now.getTime() - Date.parse(at)) / 3_600_000;
  return hours < 1 ? `${Math.max(1, Math.round(hours * 60))} min` : `${Math.round(hours)} h`;
}
