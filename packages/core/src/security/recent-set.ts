/**
 * Keys remembered for `ttlMs`, at most `max` of them (the oldest go first): a bounded memory
 * of what was seen recently, for decisions that must not grow with what a flood sends.
 */
export class RecentSet {
  readonly #seen = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  has(key: string): boolean {
    const at = this.#seen.get(key);
    if (at === undefined) return false;
    if (this.now() - at < this.ttlMs) return true;
    this.#seen.delete(key);
    return false;
  }

  remember(key: string): void {
    // Re-inserted, so the Map's order stays oldest first.
    this.#seen.delete(key);
    this.#seen.set(key, this.now());
    if (this.#seen.size > this.max) {
      const oldest = this.#seen.keys().next();
      if (!oldest.done) this.#seen.delete(oldest.value);
    }
  }

  clear(): void {
    this.#seen.clear();
  }
}
