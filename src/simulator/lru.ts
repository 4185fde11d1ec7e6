/**
 * A least-recently-used cache bounded by the total weight of its entries (a session's weight is
 * its number of orders), so that big days do not multiply memory. Map keeps insertion order, so
 * the first key is the oldest.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private totalWeight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry?.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    this.entries.set(key, { value, weight });
    this.totalWeight += weight;
    // The newest entry always stays, whatever its weight.
    while (this.totalWeight > this.maxWeight && this.entries.size > 1) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.totalWeight -= entry.weight;
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.totalWeight = 0;
  }
}
