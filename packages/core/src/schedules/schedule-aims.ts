import type { Stores } from '../ports/storage.js';
import { DomainError } from '../errors/domain-error.js';

/**
 * A pool, a NAS or a share that schedules aim at is not deleted: 409 naming them, so nothing is
 * lost or left running without a word (docs/decisions/111-deletes-refused-while-schedules-aim.md).
 * Read in the delete's transaction: a schedule saved meanwhile is seen or waits for it.
 */
export async function refuseWhileAimedAt(
  stores: Pick<Stores, 'schedules'>,
  target: { poolId: number } | { nasId: number } | { shareId: number },
  what: string,
): Promise<void> {
  const aiming = await stores.schedules.aimingAt(target);
  if (aiming.length === 0) return;
  const names = aiming.map((schedule) => schedule.name);
  const shown = names.slice(0, 10).join(', ') + (names.length > 10 ? ` and ${names.length - 10} more` : '');
  throw new DomainError('conflict', `${what} is the target of schedule(s) ${shown}: change or delete them first`, {
    details: { schedules: aiming.slice(0, 100).map((schedule) => ({ error: 'frozen' as const, value: schedule.name })) },
  });
}
