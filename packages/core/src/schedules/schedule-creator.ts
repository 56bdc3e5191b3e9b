import type { Principal } from '../scopes/principal.js';
import type { Storage } from '../ports/storage.js';
import type { ScheduleRecord } from '../ports/schedule-store.js';
import { systemPrincipal } from '../scopes/principal.js';
import { isAllowed } from '../scopes/scope-check.js';
import { userPrincipalOf } from '../services/role-scopes.js';
import { keyPrincipal } from '../services/api-key-lineage.js';

/** The columns that record whose rights a schedule acts with: a stored user, a key, or neither (the system). */
export function creatorColumns(principal: Principal): Pick<ScheduleRecord, 'creator_user_id' | 'creator_key_id'> {
  if (principal.kind === 'api_key') return { creator_user_id: null, creator_key_id: principal.keyId };
  // Stored users have ids from 1; the system principal (CLI, console) is 0.
  return { creator_user_id: principal.userId > 0 ? principal.userId : null, creator_key_id: null };
}

/** Who a schedule acts for now, or why it may act no more. */
export type Creator = { principal: Principal } | { stopped: string };

/**
 * The creator's rights as they are now (docs/decisions/107-schedules-act-with-their-creators-rights.md):
 * a user as stored, a key as its lineage bounds it (api-key-lineage.ts, as a request would see
 * it), the system when neither is recorded (schedules from before the creator was). Stopped when
 * the creator is gone (deleted, revoked, expired) or may no longer start the schedule's action.
 */
export async function creatorOf(storage: Pick<Storage, 'users' | 'apiKeys' | 'roles'>, schedule: ScheduleRecord, now: Date): Promise<Creator> {
  let principal: Principal = systemPrincipal;
  if (schedule.creator_key_id !== null) {
    const key = await storage.apiKeys.get(schedule.creator_key_id);
    const keyRights = key && (await keyPrincipal(storage, key));
    if (!keyRights) return { stopped: `its creator, API key ${schedule.creator_key_id}, no longer exists` };
    if (keyRights.expiresAt !== null && keyRights.expiresAt <= now.getTime()) return { stopped: `its creator, API key ${keyRights.name}, has expired` };
    principal = keyRights;
  } else if (schedule.creator_user_id !== null) {
    const user = await storage.users.get(schedule.creator_user_id);
    if (!user) return { stopped: `its creator, user ${schedule.creator_user_id}, no longer exists` };
    principal = await userPrincipalOf(storage, user);
  }
  if (!isAllowed(principal, 'nas_shares', schedule.action))
    return { stopped: `its creator may no longer ${schedule.action} shares (missing scope nas_shares / ${schedule.action})` };
  return { principal };
}

/** Whether the creator may start the schedule's action on this share (scopes are per resource type today: the same for every share). */
export function mayActOn(principal: Principal, schedule: Pick<ScheduleRecord, 'action'>): boolean {
  return isAllowed(principal, 'nas_shares', schedule.action);
}
