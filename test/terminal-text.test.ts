/** Text from the API as a terminal may show it: every control visible, nothing else touched. */
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/log.js";
import { HOSTILE_NAME_PARTS, hostileName } from "../src/simulator/hostile.js";
import { visible } from "../src/terminal-text.js";
import { expectNoTerminalControls } from "./helpers/terminal.js";

describe("visible", () => {
  it("writes each kind of terminal control as an escape a person can read", () => {
    const p = HOSTILE_NAME_PARTS;
    expect(visible(`a${p.colour}b`)).toBe("a\\x1b[31mb");
    expect(visible(p.windowTitle)).toBe("\\x1b]0;owned\\x07");
    expect(visible(`Marco${p.carriageReturn}`)).toBe("Marco\\r");
    expect(visible(p.forgedLine)).toBe("\\n  orders   complete through 2099-01-01");
    expect(visible(p.delete)).toBe("\\x7f");
    expect(visible(p.c1)).toBe("\\x9b2J");
    expect(visible(`${p.bidiOverride}cba`)).toBe("\\u202ecba");
    expect(visible("\u0000\t\u001f\u0085")).toBe("\\x00\\t\\x1f\\x85");
  });

  it("shows every bidirectional mark, embedding, override and isolate, and line separators", () => {
    const bidi = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069";
    expect(visible(bidi)).toBe(
      "\\u061c\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069",
    );
    expect(visible("one\u2028two\u2029")).toBe("one\\u2028two\\u2029");
  });

  it("leaves ordinary text as it is: accents, CJK, emoji, quotes and backslashes", () => {
    const text = 'Café "Ω" \\ 🍕 ñ 漢字 Trattoria Aurora — 58.40 €';
    expect(visible(text)).toBe(text);
  });

  it("turns a hostile name into one line with no control left", () => {
    const shown = visible(hostileName("Trattoria Aurora"));
    expectNoTerminalControls(shown, "hostile name");
    expect(shown).not.toContain("\n");
    expect(shown).toContain("Trattoria Aurora");
  });
});

describe("a log line", () => {
  it("escapes the controls JSON leaves as they are, and parses back to the same values", () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => lines.push(line) } });
    const message = hostileName("Le Petit Zinc");
    logger.warn({ location: message }, message);
    const [line] = lines;
    expectNoTerminalControls(line ?? "", "log line");
    expect(JSON.parse(line ?? "{}")).toMatchObject({ location: message, msg: message });
  });
});
