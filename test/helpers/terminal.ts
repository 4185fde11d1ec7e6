/** What a terminal must never be sent from API data: control characters (tab and line feed
 * aside, which pos-sync's own layout uses) and bidirectional controls. */
import { expect } from "vitest";

export const TERMINAL_CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to find
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Fails with the offending character's code and the line around it. */
export function expectNoTerminalControls(text: string, what: string): void {
  const found = TERMINAL_CONTROL.exec(text);
  const line = found ? text.slice(text.lastIndexOf("\n", found.index) + 1).split("\n")[0] : "";
  const code = found ? `U+${found[0].charCodeAt(0).toString(16).padStart(4, "0")}` : "";
  expect(found, `${what}: ${code} in ${JSON.stringify(line)}`).toBeNull();
}
