/**
 * The `limit` best items seen, kept sorted best first. Offering an item costs one comparison
 * with the worst kept once the list is full (the usual case in a large walk), and a binary
 * insertion of at most `limit` slots otherwise: with limits of 20 to 100 a sorted array beats
 * a heap and keeps the answer ordered.
 */
export class TopK<T> {
  private readonly items: T[] = [];

  /** `before(a, b)`: a ranks before b. Must be a strict total order for a stable answer. */
  constructor(
    private readonly limit: number,
    private readonly before: (a: T, b: T) => boolean,
  ) {}

  /** Whether an item ranking like `probe` would be kept (lets a caller skip building it). */
  admits(probe: T): boolean {
    const worst = this.items[this.items.length - 1];
    return this.items.length < this.limit || worst === undefined || this.before(probe, worst);
  }

  /** The worst item kept once the list is full (undefined before): what a candidate must beat. */
  bar(): T | undefined {
    return this.items.length < this.limit ? undefined : this.items[this.items.length - 1];
  }

  offer(item: T): void {
    if (this.limit <= 0 || !this.admits(item)) return;
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.before(this.items[middle]!, item)) low = middle + 1;
      else high = middle;
    }
    this.items.splice(low, 0, item);
    if (this.items.length > this.limit) this.items.pop();
  }

  /** Best first. */
  sorted(): readonly T[] {
    return this.items;
  }
}
