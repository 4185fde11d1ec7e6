/**
 * A message's HTML, made by templates that escape every value by themselves: a value is written
 * `<%= value %>` and comes out escaped, with its control and bidirectional characters written out
 * as the plain text writes them (visibleHtml), so that no value is left to be escaped by hand and
 * none can be forgotten. HTML a template made is a SafeHtml, which another template writes as it
 * is: a fragment is escaped once, where it was made, never twice.
 *
 * The engine is eta (its `eta/core`: 8 kB, no file access, no dependency), chosen over:
 * - mustache: logic-less (every condition of the report would need a view field of its own),
 *   and its escaping is replaced for the whole process (`Mustache.escape`);
 * - handlebars: CommonJS with four dependencies, its escaper replaced through the shared
 *   `Utils`, and a SafeString of its own where SafeHtml is needed anyway;
 * - escape-goat's `htmlEscape` tag: escapes, but has no hook for visibleHtml, and a fragment it
 *   made is a plain string that the enclosing tag escapes a second time;
 * - @kitajs/html: JSX (a compiler setting for the whole project), and children are not escaped
 *   unless marked `safe`: the default is the unsafe way.
 * eta escapes by default, takes the escape function per instance (the status page keeps its own
 * hand-written HTML untouched), ships ESM and CommonJS with types, asks Node 20 as pos-sync does,
 * and is maintained. Its raw tag (`<%~`) is refused here: a fragment goes in as a SafeHtml.
 */
import { Eta, type TemplateFunction } from "eta/core";
import { visibleHtml } from "../../html-text.js";

/** HTML a template made: written into another template as it is. */
export class SafeHtml {
  constructor(readonly html: string) {}
}

/** The template's escape: every value but a fragment already made is API text until proved
 * otherwise. */
function escapeValue(value: unknown): string {
  return value instanceof SafeHtml ? value.html : visibleHtml(String(value));
}

const engine = new Eta({
  autoEscape: true,
  escapeFunction: escapeValue,
  // The page is written as it reads: no newline after a tag is swallowed.
  autoTrim: false,
  useWith: false,
  varName: "it",
  cache: false,
});

/**
 * A template of `source` over data of type `T` (as `it`). Compiled once, on first use. Throws
 * when the source holds a raw tag, which would write a value unescaped.
 */
export function htmlTemplate<T extends object>(source: string): (data: T) => SafeHtml {
  if (source.includes("<%~")) {
    throw new Error("htmlTemplate: no raw tag (<%~): pass a fragment as a SafeHtml");
  }
  let compiled: TemplateFunction | undefined;
  return (data) => {
    compiled ??= engine.compile(source);
    return new SafeHtml(engine.render(compiled, data));
  };
}

/** Fragments one after another, each on a line of its own. */
export function joinHtml(fragments: readonly SafeHtml[]): SafeHtml {
  return new SafeHtml(fragments.map((fragment) => fragment.html).join("\n"));
}
