import type { Stores } from '../ports/storage.js';
import type { SilenceRecord } from '../ports/silence-store.js';
import { silenceMatches, type SilencedCandidate } from '../domain/silence.js';
import type { Severity } from '../domain/trap.js';

/** What of an alert a silence looks at. */
export type SilenceTarget = { source: string; level: Severity; resource_type: string | null; resource_id: string | null };

const numericId = (id: string | null): number | null => (id !== null && /^\d{1,15}$/.test(id) ? Number(id) : null);

/**
 * The NAS and pool an alert's resource is or is on: a NAS or a pool itself, or a share's (read
 * only when a silence names `nas_id` or `pool_id`).
 */
async function placeOf(stores: Pick<Stores, 'shares'>, target: SilenceTarget): Promise<Pick<SilencedCandidate, 'nas_id' | 'pool_id'>> {
  const id = numericId(target.resource_id);
  if (id === null) return { nas_id: null, pool_id: null };
  if (target.resource_type === 'nas') return { nas_id: id, pool_id: null };
  if (target.resource_type === 'pools') return { nas_id: null, pool_id: id };
  if (target.resource_type !== 'nas_shares') return { nas_id: null, pool_id: null };
  const share = await stores.shares.get(id);
  return { nas_id: share?.nas_id ?? null, pool_id: share?.pool_id ?? null };
}

/** The silences among `active` that match the alert (docs/api.md#silences). */
export async function silencesMatching(stores: Pick<Stores, 'shares'>, active: readonly SilenceRecord[], target: SilenceTarget): Promise<SilenceRecord[]> {
  if (active.length === 0) return [];
  const needsPlace = active.some((silence) => silence.matchers.nas_id !== undefined || silence.matchers.pool_id !== undefined);
  const place = needsPlace ? await placeOf(stores, target) : { nas_id: null, pool_id: null };
  return active.filter((silence) => silenceMatches(silence.matchers, { ...target, ...place }));
}
