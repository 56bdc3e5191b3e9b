/**
 * What a list remembers until the data may have changed, per filter and order: the count of
 * matching rows, and anchors (the sort-key values of the row at an offset) from which a later
 * page seeks instead of walking every row before it. A count of 100,000 matching rows walks
 * 100,000 index entries, and so does the page at offset 100,000; a client paging through one
 * filtered list asks the same count again and again, and the next page starts where the last
 * one ended. Only adapters that can tell when anything changed provide one: SQLite (every write
 * on its connection, plus PRAGMA data_version for other connections) and PostgreSQL (a version
 * the writing transaction bumps, so every replica sees it move at the commit).
 */
export interface ListCache {
  /** The data's version now: what is read is remembered under the version read before it. */
  version(): string | Promise<string>;
  count(version: string, key: string): number | undefined;
  setCount(version: string, key: string, count: number): void;
  /** The anchor at the greatest offset not past `offset`. */
  anchor(version: string, key: string, offset: number): Anchor | undefined;
  addAnchor(version: string, key: string, anchor: Anchor): void;
}

/** The row at `offset` in a list's order, by its sort keys' values (in the order's key order). */
export interface Anchor {
  offset: number;
  values: readonly unknown[];
}

interface Entry {
  count?: number;
  /** By offset, ascending. */
  anchors: Anchor[];
}

export function createListCache(dataVersion: () => string | Promise<string>, maxKeys = 256, maxAnchorsPerKey = 64): ListCache {
  let version = '';
  const entries = new Map<string, Entry>();
  const at = (readVersion: string, key: string) => (readVersion === version ? entries.get(key) : undefined);
  const entryFor = (readVersion: string, key: string): Entry => {
    // What was read under an older version than the latest stored can only evict, never be served stale.
    if (readVersion !== version) {
      version = readVersion;
      entries.clear();
    }
    let entry = entries.get(key);
    if (!entry) {
      if (entries.size >= maxKeys) entries.delete(entries.keys().next().value!);
      entry = { anchors: [] };
      entries.set(key, entry);
    }
    return entry;
  };
  return {
    version: dataVersion,
    count: (readVersion, key) => at(readVersion, key)?.count,
    setCount(readVersion, key, count) {
      entryFor(readVersion, key).count = count;
    },
    anchor(readVersion, key, offset) {
      const anchors = at(readVersion, key)?.anchors ?? [];
      let found: Anchor | undefined;
      for (const anchor of anchors) {
        if (anchor.offset > offset) break;
        found = anchor;
      }
      return found;
    },
    addAnchor(readVersion, key, anchor) {
      const { anchors } = entryFor(readVersion, key);
      const index = anchors.findIndex((known) => known.offset >= anchor.offset);
      if (index !== -1 && anchors[index]!.offset === anchor.offset) return;
      anchors.splice(index === -1 ? anchors.length : index, 0, anchor);
      // Full: drop one at random, never the first or the deepest.
      if (anchors.length > maxAnchorsPerKey) anchors.splice(1 + Math.floor(Math.random() * (anchors.length - 2)), 1);
    },
  };
}

/**
 * The count from the cache, or from `count()` remembered under the version read before it
 * ran: a write committed meanwhile moves the version on, so that count is never served as
 * the newer data's.
 */
export async function countThrough(cache: ListCache, version: string, key: string, count: () => Promise<number>): Promise<number> {
  const known = cache.count(version, key);
  if (known !== undefined) return known;
  const total = await count();
  cache.setCount(version, key, total);
  return total;
}
