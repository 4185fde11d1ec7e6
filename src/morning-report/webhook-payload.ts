import type { MorningReport } from "./morning-report.js";

/** What a webhook receives: a Slack-style `text` (Slack, Mattermost, Teams and generic receivers
 * read it) and the report's figures. */
export function webhookPayload(report: MorningReport, text: string) {
  return {
    text,
    report: {
      days: report.days,
      chain: report.chain,
      locations: report.locations.map((l) => ({
        locationId: l.locationId,
        name: l.name,
        day: l.day,
        figures: l.figures,
        usual: l.usual,
        health: l.health,
        exceptions: l.exceptions,
      })),
    },
  };
}
