/**
 * Remembers list counts until the data may have changed. A count of 100,000 matching rows
 * walks 100,000 index entries (~8 ms on SQLite, ~20 ms on PostgreSQL); a client paging
 * through one filtered list asks the same count again and again. Only adapters that can tell
 * when anything changed provide one: SQLite (every write on its connection, plus PRAGMA
 * data_version for other connections) and PostgreSQL (a version the writing transaction
 * bumps, so every replica sees it change at the commit).
 */
export interface CountCache {
  /** The data's version now: a count is read and remembered under the version read before it. */
  version(): string | Promise<string>;
  get(version: string, key: string): number | undefined;
  set(version: string, key: string, count: number): void;
}

export function createCountCache(dataVersion: () => string | Promise<string>, maxEntries = 256): CountCache {
  let version = '';
  const counts = new Map<string, number>();
  return {
    version: dataVersion,
    get: (at, key) => (at === version ? counts.get(key) : undefined),
    set(at, key, count) {
      // A count read under an older version than the latest stored can only evict, never be served stale.
      if (at !== version) {
        version = at;
        counts.clear();
      }
      if (counts.size >= maxEntries) counts.delete(counts.keys().next().value!);
      counts.set(key, count);
    },
  };
}

/**
 * The count from the cache, or from `count()` remembered under the version read before it
 * ran: a write committed meanwhile moves the version on, so that count is never served as
 * the newer data's.
 */
export async function countThrough(cache: CountCache, key: string, count: () => Promise<number>): Promise<number> {
  const version = await cache.version();
  const known = cache.get(version, key);
  if (known !== undefined) return known;
  const total = await count();
  cache.set(version, key, total);
  return total;
}
