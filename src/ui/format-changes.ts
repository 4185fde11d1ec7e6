/** `pos-sync changes` as plain language, one line per change, for a daily e-mail or a chat
 * webhook: "order 1042 at Trattoria Aurora, paid 58.40 at 21:12, cancelled at 23:40 by Marco". */

import type { LocalMoment } from "../clock/local-moment.js";
import { utcMinute } from "../clock/local-moment.js";
import type { ChangesReport, OrderChange } from "../read-models/changes.js";
import { visible } from "../terminal-text.js";

const money = (amount: number) => amount.toFixed(2);

/** A moment, with its day when it is not the order's business day. */
function when(moment: LocalMoment, businessDate: string): string {
  const time = moment.local ? moment.time : `${moment.time} UTC`;
  return moment.day === businessDate ? `at ${time}` : `on ${moment.day} at ${time}`;
}

function what(change: OrderChange): string {
  const parts = change.kinds.map((kind) => {
    // The total follows in its own words.
    if (kind === "total changed") return "changed";
    if (kind !== "items voided") return kind;
    const items = change.voidedItems.map((i) => `${visible(i.description)} ${money(i.amount)}`);
    return items.length === 0 ? "items voided" : `voided ${items.join(", ")}`;
  });
  return parts.join(", ");
}

/** One change in a sentence: one line, whatever the names hold, since it goes into e-mails and
 * chat messages as it is (the JSON output carries it too). */
export function describeChange(change: OrderChange): string {
  const where = `order ${visible(change.orderNumber)} at ${visible(change.locationName ?? change.locationId)}`;
  const closed = when(change.closedAtLocal, change.businessDate);
  const before =
    change.paid > 0
      ? `paid ${money(change.paid)} ${closed}`
      : `closed ${closed} with ${money(change.previousTotal)} unpaid`;
  if (change.kinds.includes("vanished"))
    return `${where}, ${before}, no longer listed by the API (noticed ${utcMinute(change.seenAt)})`;
  // A correction found by proving the day again carries the updatedAt and the operator of the
  // version before it: neither says when, nor who.
  const at = change.foundByRepair
    ? ` upstream without a new updatedAt (found when the day was proved again, ${utcMinute(change.seenAt)})`
    : change.changedAtLocal
      ? ` ${when(change.changedAtLocal, change.businessDate)}`
      : "";
  const by = change.changedBy && !change.foundByRepair ? ` by ${visible(change.changedBy)}` : "";
  const total =
    change.newTotal !== null && change.newTotal !== change.previousTotal
      ? `, total ${money(change.previousTotal)} → ${money(change.newTotal)}`
      : "";
  return `${where}, ${before}, ${what(change)}${at}${by}${total}`;
}

export interface ChangesLayout {
  /** Lines shown at most; the rest are counted. */
  limit?: number;
  /** A heading above the list. */
  title?: string;
  /** What the changes are counted since, in words, instead of the instant pos-sync saw them from
   * (the demo's runs see days of the past in minutes). */
  since?: string;
}

export function formatChanges(report: ChangesReport, layout: ChangesLayout = {}): string {
  const at = utcMinute(report.since);
  const since = {
    date: `since ${report.since.slice(0, 10)}`,
    instant: `since ${at}`,
    "last run": `since the last run began (${at})`,
    everything: "ever",
  }[report.sinceFrom];
  const counted = layout.since ?? since;
  const count = report.changes.length;
  const head = layout.title === undefined ? [] : [layout.title, ""];
  if (count === 0) return `${[...head, `No order changed ${counted}.`].join("\n")}\n`;
  const shown = report.changes.slice(0, layout.limit ?? count);
  const lines = [
    ...head,
    `${count} order change${count === 1 ? "" : "s"} ${counted}:`,
    ...shown.map((c) => `- ${describeChange(c)}`),
  ];
  if (shown.length < count) lines.push(`… and ${count - shown.length} more`);
  return `${lines.join("\n")}\n`;
}
