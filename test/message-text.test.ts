/**
 * API text in the messages that leave the machine: a webhook's `text` posts it as plain words (no
 * mention, no link), an e-mail's HTML part shows its control and bidi characters visibly, and the
 * webhook's data keeps it as sent. Apart from any I/O: the messages as the outbox records them.
 */
import { describe, expect, it } from "vitest";
import { alertMessage } from "../src/alerts/alert-message.js";
import { chatText } from "../src/messages/compose/chat-text.js";
import { compose } from "../src/messages/compose/compose.js";
import type { Recipient } from "../src/messages/recipients.js";
import type { MorningReport } from "../src/morning-report/morning-report.js";
import { reportMessage } from "../src/morning-report/report-message.js";
import { expectNoTerminalControls } from "./helpers/terminal.js";

const PHISHING = "<!channel> <https://evil.example/login|Click here to confirm your payroll> @here";

/** A name as a POS may send it: chat markup, ESC, BEL, NEL (C1) and a right-to-left override. */
const hostile = (name: string) => `${name} ${PHISHING}\u001b[31m\u0007\u0085\u202e${name}`;

/** An `@` that would ping: at the start of a word, before a name. */
const LIVE_MENTION = /(?<![\p{L}\p{N}._+-])@[\p{L}\p{N}_]/u;

/** The word joiner chatText puts inside mentions and links. */
const JOINER = "\u2060";

const readBack = (text: string) =>
  text
    .replaceAll(JOINER, "")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/** A webhook's `text` as a chat would post it: no markup, no mention, no control character. */
function expectPlainChatText(text: string, what: string): void {
  expect(text, what).not.toMatch(/[<>]/);
  expect(text, what).not.toMatch(LIVE_MENTION);
  expect(text, what).not.toContain("](");
  expectNoTerminalControls(text, what);
}

describe("chat text", () => {
  it("posts a name made of chat markup as the words it reads, with no mention or link left", () => {
    const text = chatText(PHISHING);
    expect(text).toBe(
      `&lt;!channel&gt; &lt;https://evil.example/login|Click here to confirm your payroll&gt; @${JOINER}here`,
    );
    expect(text).not.toContain("<!channel>");
    expect(text).not.toMatch(/<https?:[^>]*\|/);
    expect(readBack(text)).toBe(PHISHING);
  });

  it("escapes every ampersand and angle bracket, an entity written out included", () => {
    expect(chatText("Fish & Chips <b>&amp;</b>")).toBe(
      "Fish &amp; Chips &lt;b&gt;&amp;amp;&lt;/b&gt;",
    );
  });

  it("keeps any mention from pinging, and leaves an e-mail address as it is", () => {
    const text = chatText("@here @channel @all @everyone (@alice) owner@example.com");
    expect(text).not.toMatch(LIVE_MENTION);
    expect(text).toContain("owner@example.com");
    expect(readBack(text)).toBe("@here @channel @all @everyone (@alice) owner@example.com");
  });

  it("keeps a Markdown link from linking", () => {
    const text = chatText("[Confirm](https://evil.example/login)");
    expect(text).not.toContain("](");
    expect(readBack(text)).toBe("[Confirm](https://evil.example/login)");
  });

  it("leaves ordinary text as it is", () => {
    const text =
      'Morning report, Saturday 28 November 2026: 2 exception(s)\n  Café "Ω" 漢字 🍕 — 1 234,50 € (+4 %); key#bbbbbbbb\n';
    expect(chatText(text)).toBe(text);
  });
});

describe("messages built from hostile names", () => {
  const recipients: Recipient[] = [
    { channel: "e-mail", recipient: "owner@example.com" },
    { channel: "webhook", recipient: "https://hooks.example/…" },
  ];
  const bodies = (message: Parameters<typeof compose>[2]) => {
    const [mail, webhook] = compose("alert", "1 opened", message, recipients).map(
      (d) => JSON.parse(d.body) as Record<string, unknown>,
    );
    return {
      html: String(mail?.html),
      text: String(webhook?.text),
      webhook: webhook as Record<string, unknown>,
    };
  };
  /** An HTML part: no raw control or bidi character, each written out as the text part does. */
  const expectVisibleHtml = (html: string, what: string) => {
    expectNoTerminalControls(html, what);
    for (const shown of ["\\x1b[31m", "\\x07", "\\x85", "\\u202e"])
      expect(html, what).toContain(shown);
  };

  const figures = { sales: 1234.5, orders: 40, guests: 61, averageOrder: 30.86 };
  const report: MorningReport = {
    day: "2026-11-28",
    days: ["2026-11-28"],
    generatedAt: "2026-11-29T06:00:00.000Z",
    locations: [
      {
        locationId: "loc-1",
        name: hostile("Le Petit Zinc"),
        country: "FR",
        day: "2026-11-28",
        figures,
        usual: null,
        usualWeeks: 0,
        exceptions: [
          {
            kind: "item voided after close",
            employee: hostile("Marco"),
            orderNumber: "A-1042",
            amount: 12.5,
            time: "21:14",
            detail: hostile("Burrata & tomatoes"),
          },
        ],
        health: { complete: true, proved: true, gaps: [], repairs: 0, rejects: 0 },
      },
    ],
    chain: { figures, usual: null, exceptions: 1 },
    lastSuccessAt: "2026-11-29T05:45:00.000Z",
  };

  it("post the morning report's names to a chat as plain words, and show them visibly in HTML", () => {
    const { html, text, webhook } = bodies(reportMessage(report));
    expectPlainChatText(text, "report webhook text");
    expect(text).toContain("Le Petit Zinc &lt;!channel&gt;");
    expect(text).toContain("Burrata &amp; tomatoes");
    expectVisibleHtml(html, "report HTML");
    // The figures are data: the names as the API sent them, for a receiver to escape.
    expect(webhook.report).toMatchObject({
      locations: [{ name: hostile("Le Petit Zinc"), exceptions: [{ employee: hostile("Marco") }] }],
    });
  });

  it("post an alert's detail and subject to a chat as plain words, and show them visibly in HTML and in a mail header", () => {
    const detail = `${hostile("Le Petit Zinc")}: its orders were last read at 2026-11-28 05:45 UTC`;
    const message = alertMessage({
      id: 1,
      kind: "data stale",
      subject: "loc-1",
      detail,
      openedAt: "2026-11-29T06:00:00.000Z",
      about: `${hostile("Le Petit Zinc")}\r\nBcc: everyone@example.com`,
    });
    const { html, text, webhook } = bodies(message);
    expectNoTerminalControls(message.subject, "alert subject");
    expect(message.subject).not.toMatch(/[\n\t\u2028\u2029]/);
    expect(message.subject).toMatch(/^pos-sync alert: data stale at Le Petit Zinc <!channel> /);
    expectPlainChatText(text, "alert webhook text");
    expect(text).toContain("Le Petit Zinc &lt;!channel&gt;");
    expect(text.split("\n")[0]).toContain("\\r\\nBcc: everyone@example.com");
    expectVisibleHtml(html, "alert HTML");
    expect(webhook.alert).toMatchObject({ detail });
  });
});
