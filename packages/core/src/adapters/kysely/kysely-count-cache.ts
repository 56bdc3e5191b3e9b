/**
 * Remembers list counts until the data may have changed. A count of 100,000 matching rows
 * walks 100,000 index entries (~8 ms on SQLite); a client paging through one filtered list
 * asks the same count again and again. Only adapters that can tell when anything changed
 * (SQLite: every write, plus PRAGMA data_version for other connections) provide one.
 */
export interface CountCache {
  get(key: string): number | undefined;
  set(key: string, count: number): void;
}

export function createCountCache(dataVersion: () => string, maxEntries = 256): CountCache {
  let version = '';
  const counts = new Map<string, number>();
  const current = () => {
    const now = dataVersion();
    if (now !== version) {
      version = now;
      counts.clear();
    }
  };
  return {
    get(key) {
      current();
      return counts.get(key);
    },
    set(key, count) {
      current();
      if (counts.size >= maxEntries) counts.delete(counts.keys().next().value!);
      counts.set(key, count);
    },
  };
}
