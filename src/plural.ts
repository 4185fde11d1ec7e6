/** "category" → "categories", "tax" → "taxes", "order" → "orders"; the noun alone for one. */
export function plural(noun: string, count: number): string {
  if (count === 1) return noun;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return /(x|s|ch|sh)$/.test(noun) ? `${noun}es` : `${noun}s`;
}
