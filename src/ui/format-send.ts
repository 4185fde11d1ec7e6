/** What `report --send` says of each recipient: on standard output, a line per recipient; on
 * standard error, what is left to do when something did not go. It promises no retry of its own:
 * the command runs once, so what waits is tried again by the daemon if one runs, or by the next
 * `report --send`. */

import { utcMinute } from "../clock/local-moment.js";
import type { SendOutcome } from "../messages/outbox/send-outcome.js";
import type { Recipient } from "../messages/recipients.js";
import type { DeliveryChannel } from "../messages/transports/transport.js";
import { plural } from "../plural.js";
import { visible } from "../terminal-text.js";

export interface DaySent {
  day: string;
  locations: number;
  /** `--resend`: sent again on purpose. */
  resend: boolean;
  outcomes: { recipient: Recipient; outcome: SendOutcome }[];
}

const CHANNEL: Record<DeliveryChannel, string> = { "e-mail": "by e-mail", webhook: "by webhook" };

function why(text: string | null): string {
  return text ? ` (${visible(text)})` : "";
}

function outcomeText(outcome: SendOutcome): string {
  switch (outcome.kind) {
    case "sent":
      return "sent";
    case "already sent":
      return `already sent ${utcMinute(outcome.at)}: nothing new`;
    case "waiting":
      // No error yet: the pass left it once its channel failed for an earlier message.
      return `not delivered now: it waits in the outbox (${visible(outcome.why ?? "not tried yet")}), next attempt from ${utcMinute(outcome.nextAttemptAt)}`;
    case "failed":
      return `failed for good ${utcMinute(outcome.at)}${why(outcome.why)}`;
    case "retired":
      return `retired ${utcMinute(outcome.at)}${why(outcome.why)}`;
    case "not recorded":
      return "not recorded";
  }
}

export function formatSend(days: readonly DaySent[]): { stdout: string; stderr: string } {
  const out: string[] = [];
  for (const day of days) {
    const again = day.resend ? ", sent again" : "";
    out.push(
      `Morning report of ${day.day} (${day.locations} ${plural("location", day.locations)})${again}:`,
    );
    for (const { recipient, outcome } of day.outcomes)
      out.push(
        `  ${visible(recipient.recipient)} ${CHANNEL[recipient.channel]}: ${outcomeText(outcome)}`,
      );
  }
  const all = days.flatMap((d) => d.outcomes.map((o) => o.outcome.kind));
  const count = (kind: SendOutcome["kind"]) => all.filter((k) => k === kind).length;
  if (all.length > 0 && all.every((kind) => kind === "already sent"))
    out.push("Nothing new: every recipient had it already (--resend sends it again).");
  const errors: string[] = [];
  const waiting = count("waiting");
  if (waiting > 0) {
    errors.push(
      `${waiting} ${plural("message", waiting)} could not be delivered now and ${waiting === 1 ? "waits" : "wait"} in the outbox: the daemon, if it runs, tries ${waiting === 1 ? "it" : "them"} again; otherwise run pos-sync report --send again`,
    );
  }
  const ended = count("failed") + count("retired") + count("not recorded");
  if (ended > 0) {
    errors.push(
      `${ended} ${plural("message", ended)} will not be sent: once what ${ended === 1 ? "its line says is" : "their lines say are"} fixed, a corrected address gets it from the next pos-sync report --send, and --resend sends it again to every recipient`,
    );
  }
  return {
    stdout: out.map((line) => `${line}\n`).join(""),
    stderr: errors.map((line) => `pos-sync: report --send: ${line}\n`).join(""),
  };
}
