/**
 * PostgreSQL stores no NUL character: not in text, not in jsonb (where `\u0000` is refused too).
 * The API may send one (a hostile or broken client's text); it is stored as U+FFFD, the
 * replacement character, rather than failing the record's page for good. SQLite keeps it as sent.
 */
const REPLACEMENT = "\uFFFD";

/** A NUL escaped in JSON text, not preceded by an escaping backslash of its own. */
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

export function storableText(value: string): string {
  return value.includes("\0") ? value.replaceAll("\0", REPLACEMENT) : value;
}

export function storableJson(json: string): string {
  return json.includes("\\u0000") ? json.replace(ESCAPED_NUL, "$1\\ufffd") : json;
}
