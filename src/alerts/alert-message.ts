/**
 * An alert as it is sent: when it opens, what was found and what to do; when it closes, that it
 * ended and how long it lasted. The same words by e-mail (text, and HTML in the e-mail's page,
 * messages/compose/email-page.ts) and in a webhook's Slack-style `text`.
 */

import { durationBetween } from "../clock/durations.js";
import { utcMinute } from "../clock/local-moment.js";
import { emailPage } from "../messages/compose/email-page.js";
import { htmlTemplate, joinHtml } from "../messages/compose/html-template.js";
import type { Message } from "../messages/message.js";
import { visible } from "../terminal-text.js";

export interface AlertEvent {
  id: number;
  kind: string;
  subject: string;
  /** What was found when it opened. */
  detail: string;
  openedAt: string;
  /** Set when it closed: when, and what was found then. */
  closedAt?: string;
  resolution?: string | null;
  /** What it is about, as its subject line names it (alertAbout); none for the sync as a whole. */
  about?: string | undefined;
}

/**
 * What an alert is about, for its subject line, so that two locations' alerts of one kind are told
 * apart in an inbox: a key's fingerprint for a key's alert, else the location's name (its id
 * while it has none); nothing for the sync as a whole.
 */
export function alertAbout(
  alert: { kind: string; subject: string },
  locations: readonly { id: string; name: string | null }[],
): string | undefined {
  if (alert.subject === "") return undefined;
  if (alert.kind === "key rejected") return alert.subject;
  return locations.find((l) => l.id === alert.subject)?.name || alert.subject;
}

/** " at Le Petit Zinc", " for key#1a2b3c4d". The name came from the API: made one visible line,
 * since a header must hold no CR or LF, and a subject is shown as it is. */
function aboutWords(alert: AlertEvent): string {
  if (!alert.about) return "";
  return ` ${alert.kind === "key rejected" ? "for" : "at"} ${visible(alert.about)}`;
}

/** A line of the e-mail's words below its heading. */
const paragraph = htmlTemplate<{ line: string }>("<p><%= it.line %></p>");

/** Where to look, per kind. */
const NEXT_STEP: Record<string, string> = {
  "sync failing": "Run pos-sync status on the server, or read the daemon's log, for why.",
  "key rejected": "The location's data stops until the key is right.",
  "data stale": "The morning report and any dashboard miss what happened since.",
  "audit repairing":
    "Stored days changed in the POS after they were read; pos-sync has read them again.",
};

export function alertMessage(alert: AlertEvent): Message {
  const detail = visible(alert.detail);
  const opened = alert.closedAt === undefined;
  const closedAt = alert.closedAt ?? alert.openedAt;
  const what = `${alert.kind}${aboutWords(alert)}`;
  const subject = opened
    ? `pos-sync alert: ${what}`
    : `pos-sync resolved: ${what}, after ${durationBetween(alert.openedAt, closedAt, "minutes")}`;
  const lines = opened
    ? [subject, "", detail, `Since ${utcMinute(alert.openedAt)}.`, NEXT_STEP[alert.kind] ?? ""]
    : [
        subject,
        "",
        `Was: ${detail}`,
        `Now: ${visible(alert.resolution ?? "")}`,
        `From ${utcMinute(alert.openedAt)} to ${utcMinute(closedAt)}.`,
      ];
  const text = `${lines.filter((line, i) => line !== "" || i === 1).join("\n")}\n`;
  const html = emailPage({
    subject,
    accent: opened ? "#b00020" : "#2e7d32",
    content: joinHtml(
      lines
        .slice(2)
        .filter((line) => line !== "")
        .map((line) => paragraph({ line })),
    ),
  });
  return {
    subject,
    text,
    html,
    data: {
      alert: {
        kind: alert.kind,
        subject: alert.subject,
        state: opened ? "opened" : "closed",
        detail: alert.detail,
        openedAt: alert.openedAt,
        ...(opened ? {} : { closedAt, resolution: alert.resolution ?? null }),
      },
    },
  };
}
