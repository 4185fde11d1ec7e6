/**
 * The messages' HTML template: every value escaped by itself, its control characters written out
 * as the plain text writes them, a fragment a template made written once and never escaped again,
 * and no raw tag. One page for the report and the alerts.
 */
import { describe, expect, it } from "vitest";
import { alertMessage } from "../src/alerts/alert-message.js";
import { emailPage } from "../src/messages/compose/email-page.js";
import { htmlTemplate, joinHtml, SafeHtml } from "../src/messages/compose/html-template.js";

const cell = htmlTemplate<{ value: unknown }>("<td><%= it.value %></td>");

describe("the HTML template", () => {
  it.each([
    ["plain words", "Le Petit Zinc", "<td>Le Petit Zinc</td>"],
    ["markup", "<b>x</b>", "<td>&lt;b&gt;x&lt;/b&gt;</td>"],
    ["an ampersand and an entity", "Fish & Chips &amp;", "<td>Fish &amp; Chips &amp;amp;</td>"],
    ["quotes", `"a" 'b'`, "<td>&quot;a&quot; &#39;b&#39;</td>"],
    ["ESC and BEL", "\u001b[31mred\u0007", "<td>\\x1b[31mred\\x07</td>"],
    ["a C1 control", "a\u0085b", "<td>a\\x85b</td>"],
    ["a right-to-left override", "\u202eevil", "<td>\\u202eevil</td>"],
    ["a line break", "a\r\nb", "<td>a\\r\\nb</td>"],
    ["a number", 1234.5, "<td>1234.5</td>"],
    ["accents and emoji", "Café 漢字 🍕", "<td>Café 漢字 🍕</td>"],
  ])("escapes %s", (_, value, expected) => {
    expect(cell({ value }).html).toBe(expected);
  });

  it("writes a fragment made by a template once, not escaped a second time", () => {
    const row = htmlTemplate<{ cells: SafeHtml }>("<tr><%= it.cells %></tr>");
    const cells = joinHtml([cell({ value: "<b>" }), cell({ value: "&" })]);
    expect(row({ cells }).html).toBe("<tr><td>&lt;b&gt;</td>\n<td>&amp;</td></tr>");
    // A string that looks like HTML is text, whoever made it.
    expect(row({ cells: "<td>x</td>" as unknown as SafeHtml }).html).toBe(
      "<tr>&lt;td&gt;x&lt;/td&gt;</tr>",
    );
  });

  it("refuses a raw tag, which would write a value unescaped", () => {
    expect(() => htmlTemplate("<p><%~ it.value %></p>")).toThrow(/no raw tag/);
  });
});

describe("the e-mail page", () => {
  it("is one page for the report and the alerts: the subject as title and heading, escaped", () => {
    const html = emailPage({
      subject: "pos-sync alert: data stale at <Zinc>",
      accent: "#b00020",
      content: new SafeHtml("<p>words</p>"),
    });
    expect(html).toContain("<title>pos-sync alert: data stale at &lt;Zinc&gt;</title>");
    expect(html).toContain(
      '<h1 style="font-size:22px;color:#b00020">pos-sync alert: data stale at &lt;Zinc&gt;</h1>\n<p>words</p>\n</body></html>',
    );
    const alert = alertMessage({
      id: 1,
      kind: "sync failing",
      subject: "",
      detail: "3 run(s) in a row failed",
      openedAt: "2026-11-29T06:00:00.000Z",
    });
    expect(alert.html).toBe(
      emailPage({
        subject: alert.subject,
        accent: "#b00020",
        content: new SafeHtml(
          "<p>3 run(s) in a row failed</p>\n<p>Since 2026-11-29 06:00 UTC.</p>\n<p>Run pos-sync status on the server, or read the daemon&#39;s log, for why.</p>",
        ),
      }),
    );
  });
});
