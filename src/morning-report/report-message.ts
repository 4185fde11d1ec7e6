/** The morning report as a message: its words by e-mail and webhook (text.ts, html.ts) and, for a
 * webhook, its figures as data. Made the same for the daemon and for `report --send`. */
import type { Message } from "../messages/message.js";
import { reportHtml } from "./html.js";
import type { MorningReport } from "./morning-report.js";
import { reportText, subjectOf } from "./text.js";

export function reportMessage(report: MorningReport): Message {
  return {
    subject: subjectOf(report),
    text: reportText(report),
    html: reportHtml(report),
    data: {
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
    },
  };
}
