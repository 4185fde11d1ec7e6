/**
 * The one page every e-mail's HTML part is (the morning report, an alert): its subject as title
 * and heading, then what the message says. Inline styles only and no image or outside request,
 * so that a mail client shows it whole without loading anything.
 */
import { htmlTemplate, type SafeHtml } from "./html-template.js";

export interface EmailPage {
  subject: string;
  /** The heading's colour when it carries news (an alert opening, red; closing, green). */
  accent?: string;
  /** What the message says, below the heading. */
  content: SafeHtml;
}

const page = htmlTemplate<EmailPage>(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title><%= it.subject %></title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:760px;margin:0 auto;padding:12px">
<h1 style="font-size:22px<% if (it.accent !== undefined) { %>;color:<%= it.accent %><% } %>"><%= it.subject %></h1>
<%= it.content %>
</body></html>
`);

/** The e-mail's HTML part, whole. */
export function emailPage(what: EmailPage): string {
  return page(what).html;
}
