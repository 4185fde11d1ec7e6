/**
 * Text that came from the API (names, reasons, ids, server messages) as a terminal may show it.
 * A name holding ESC could recolour the screen or retitle the window, one holding CR or LF could
 * forge a line of status output or split a sentence of `changes` in two, and a bidirectional
 * override could make a line read backwards. Every such character is written out as an escape a
 * person can read instead; everything else (accents, CJK, emoji) is kept as it is. A backslash
 * is kept too: the result is for reading, not for parsing back (that is what `--json` is for).
 *
 * Applied to each value taken from the API where it enters terminal text, never to whole output:
 * pos-sync's own line breaks and colours must stay. `--json` output does not need it
 * (JSON.stringify escapes control characters, and a program reads it, not a terminal).
 */

/** C0 controls (tab and line feed included), DEL and C1 controls, the bidirectional marks,
 * embeddings, overrides and isolates, and the Unicode line and paragraph separators (which
 * some mail and chat clients break lines at). */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to find
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The escapes people know from source code, for the controls they meet most. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeOf(character: string): string {
  const short = SHORT_ESCAPES[character];
  if (short !== undefined) return short;
  const code = character.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with every control character and bidirectional control written as a visible escape
 * ("\x1b", "\n", "\x9b", "\u202e"): safe to print on a terminal, and one line. */
export function visible(text: string): string {
  return text.replace(UNSAFE, escapeOf);
}

/** The characters above U+001F that `visible` writes out: JSON leaves them as they are. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** A JSON text (a log line) with the controls JSON does not escape written as `\uXXXX`: it parses
 * back to the same values, and a terminal showing it is not steered by them. */
export function terminalSafeJson(json: string): string {
  return json.replace(
    UNSAFE_IN_JSON,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
