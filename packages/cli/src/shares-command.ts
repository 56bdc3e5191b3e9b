import { formatBytes, nasShareCreateSchema, shareHealths, type NasShare } from '@dms/core';
import type { Dms } from '@dms/core/runtime';
import { CliError } from './cli-error.js';
import { cliPrincipal } from './cli-principal.js';
import { equalTo, idsAmong, oneOf, pageOf } from './list-flags.js';
import { readPassword } from './password-prompt.js';
import { bodyOf, fieldFlags, type Flags } from './schema-flags.js';
import { notePageOfMore, printTable } from './table.js';
import { withDms, type Output } from './with-dms.js';

/**
 * The flags of `shares add`: the fields of the core's share input, but the name (given after
 * the NAS) and the password, which is never a flag (it would show in `ps` and the shell's
 * history): `--ask-password` asks for it.
 */
export const shareAddFields = fieldFlags(nasShareCreateSchema, ['name', 'password']);

/** Names of the NAS and pools a page of shares lies on, in one list call each (a page holds at most 100). */
async function namesOf(dms: Dms, shares: readonly NasShare[]): Promise<{ nas: Map<number, string>; pools: Map<number, string> }> {
  const poolIds = shares.map((item) => item.pool_id);
  const [nas, pools] = await Promise.all([
    dms.core.nas.list(cliPrincipal, idsAmong(shares.map((item) => item.nas_id))),
    poolIds.some((id) => id !== null) ? dms.core.pools.list(cliPrincipal, idsAmong(poolIds)) : { pools: [] },
  ]);
  return { nas: new Map(nas.nas.map((item) => [item.id, item.name])), pools: new Map(pools.pools.map((item) => [item.id, item.name])) };
}

function shareRow(item: NasShare, names: Awaited<ReturnType<typeof namesOf>>): string[] {
  return [
    String(item.id),
    item.name,
    names.nas.get(item.nas_id) ?? String(item.nas_id),
    item.pool_id === null ? '-' : (names.pools.get(item.pool_id) ?? String(item.pool_id)),
    item.path,
    item.health,
    // Not counted until a scan completed: a 0 there would read as an empty share.
    item.last_scanned_at === null ? '-' : String(item.file_count),
    item.last_scanned_at === null ? '-' : formatBytes(item.file_size_sum),
    // Known once a test or scan read the share's capacity (docs/api.md, the share's capacity fields).
    item.used_percent === null ? '-' : `${item.used_percent}%`,
    item.free_bytes === null ? '-' : `${formatBytes(item.free_bytes)}${item.capacity_bytes === null ? '' : ` of ${formatBytes(item.capacity_bytes)}`}`,
    item.last_scanned_at ?? '-',
  ];
}

/** `dms shares list`: as GET /nas_shares (or a NAS's, a pool's), with the NAS and pool by name. */
export async function sharesList(values: { nas?: string; pool?: string; health?: string; limit?: string; offset?: string }, out: Output): Promise<number> {
  if (values.nas !== undefined && values.pool !== undefined) throw new CliError('give --nas or --pool, not both');
  const health = oneOf('health', values.health, shareHealths);
  const page = pageOf(values);
  const scope =
    values.nas !== undefined
      ? { kind: 'nas' as const, nasRef: values.nas }
      : values.pool !== undefined
        ? { kind: 'pool' as const, poolRef: values.pool }
        : { kind: 'all' as const };
  const { count, rows } = await withDms(async (dms) => {
    const { count, nas_shares: listed } = await dms.core.shares.list(cliPrincipal, scope, { ...page.query, ...(health ? { health: equalTo(health)! } : {}) });
    const names = listed.length > 0 ? await namesOf(dms, listed) : { nas: new Map(), pools: new Map() };
    return { count, rows: listed.map((item) => shareRow(item, names)) };
  });
  printTable(out, { none: 'no shares', header: ['id', 'name', 'nas', 'pool', 'path', 'health', 'files', 'size', 'used', 'free', 'last scanned'], rows });
  notePageOfMore(page.offset, rows.length, count, 'shares');
  return 0;
}

/** `dms shares add NAS NAME --field VALUE …`: as POST /nas/{nas_id}/nas_shares. */
export async function sharesAdd(nasRef: string, name: string, values: Flags, out: Output): Promise<number> {
  const password = values['ask-password'] ? await readPassword(`password of share ${name}`) : undefined;
  // The core validates the body as POST /nas/{nas_id}/nas_shares does, the path against the NAS's driver too.
  const created = await withDms((dms) =>
    dms.core.shares.create(cliPrincipal, nasRef, { name, ...bodyOf(values, shareAddFields), ...(password === undefined ? {} : { password }) }),
  );
  out(`added share ${created.id} '${created.name}' on NAS ${nasRef} (path ${created.path}${created.username === null ? '' : `, user ${created.username}`})`);
  out(`'dms shares test ${created.id} --wait' checks that it can be reached`);
  return 0;
}

/** `dms shares rm REF`: as DELETE /nas_shares/{id}; refused while a schedule names it. Its jobs stay in the history. */
export async function sharesRm(ref: string, out: Output): Promise<number> {
  const share = await withDms(async (dms) => {
    const found = await dms.core.shares.show(cliPrincipal, { kind: 'all' }, ref);
    await dms.core.shares.destroy(cliPrincipal, { kind: 'all' }, String(found.id));
    return found;
  });
  out(`deleted share ${share.id} '${share.name}'`);
  return 0;
}
