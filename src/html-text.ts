/**
 * Text in HTML: the one escaper of pos-sync's pages and e-mails. The status page writes its markup
 * by hand and escapes each value with escapeHtml; a message's HTML is made by a template that
 * escapes every value with visibleHtml by itself (messages/compose/html-template.ts).
 */
import { visible } from "./terminal-text.js";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe for an element's content or a quoted attribute: location names and error
 * messages come from the API and must never become markup. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** API text in a message's HTML part: escaped, and its control and bidirectional characters
 * written out as the plain-text part writes them (terminal-text.ts), so that a right-to-left
 * override cannot reverse a table cell nor ESC or BEL reach a mail client raw. */
export function visibleHtml(text: string): string {
  return escapeHtml(visible(text));
}
