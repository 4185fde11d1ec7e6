/**
 * Seeded pseudo-random numbers for the simulator. Every piece of generated data draws from a
 * stream derived from the seed and a label ("loc:0/day:20412/orders"), so that any part of the
 * dataset can be regenerated on its own, in any order, with the same result.
 */

/** 32-bit FNV-1a followed by a murmur-style finaliser: cheap and well spread. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A uniform number in [0, 1) that depends only on the text. */
export function hashToUnit(text: string): number {
  return hashString(text) / 0x1_0000_0000;
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** sfc32, seeded from four hashes of the label. */
  constructor(seed: number, label: string) {
    const base = `${seed}/${label}`;
    this.a = hashString(`${base}#a`);
    this.b = hashString(`${base}#b`);
    this.c = hashString(`${base}#c`);
    this.d = hashString(`${base}#d`) | 1;
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 0x1_0000_0000;
  }

  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by relative weights: weighted([["a", 3], ["b", 1]]) returns "a" three times in four. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let point = this.next() * total;
    for (const [value, weight] of entries) {
      point -= weight;
      if (point < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new RangeError("weighted pick from an empty list");
    return last[0];
  }

  /** A new array with the items in random order (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }

  /** A random UUID (version 4 layout). */
  uuid(): string {
    const hex = (n: number) => n.toString(16).padStart(8, "0");
    const w1 = hex(this.nextUint32());
    const w2 = hex(this.nextUint32());
    const w3 = hex(this.nextUint32());
    const w4 = hex(this.nextUint32());
    const variant = ((Number.parseInt(w3.slice(0, 1), 16) & 0x3) | 0x8).toString(16);
    return `${w1}-${w2.slice(0, 4)}-4${w2.slice(5, 8)}-${variant}${w3.slice(1, 4)}-${w3.slice(4)}${w4}`;
  }
}
