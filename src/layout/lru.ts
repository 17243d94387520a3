/**
 * A small least-recently-used map: the live preview re-encodes and re-shapes the same few values on every
 * keystroke, and a batch looks the same words and shapes up hundreds of times a label.
 *
 * A hit moves its entry to the young end only once it has drifted into the older half (capacity / 2 or more
 * insertions ago): re-inserting on every hit (delete + set) made a lookup cost ~1.5 µs on a full map, as V8's
 * ordered hash table keeps rehashing away the holes. An entry used at least once per capacity / 2 insertions is
 * therefore never evicted, which is the guarantee the callers need.
 */
export class LruCache<K, V> {
  private readonly map = new Map<K, { value: V; tick: number }>();
  /** Insertions so far; an entry's `tick` is the value when it was (re)inserted. */
  private tick = 0;

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    if (this.tick - entry.tick >= this.capacity >> 1) this.insert(key, entry.value);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.insert(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
  }

  private insert(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, { value, tick: ++this.tick });
  }
}
