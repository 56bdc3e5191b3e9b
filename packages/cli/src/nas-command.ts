import { nasCreateSchema, type Nas } from '@dms/core';
import { cliPrincipal } from './cli-principal.js';
import { pageOf } from './list-flags.js';
import { bodyOf, fieldFlags, type Flags } from './schema-flags.js';
import { notePageOfMore, printTable } from './table.js';
import { withDms, type Output } from './with-dms.js';

/** The flags of `nas add`: the fields of the core's NAS input, the name aside (given first). */
export const nasAddFields = fieldFlags(nasCreateSchema, ['name']);

function nasRow(nas: Nas): string[] {
  return [String(nas.id), nas.name, nas.host, nas.type, nas.comment ?? '-', nas.price ?? '-'];
}

/** `dms nas list`: the NAS devices, as GET /nas. */
export async function nasList(values: { limit?: string; offset?: string }, out: Output): Promise<number> {
  const page = pageOf(values);
  const { count, nas: listed } = await withDms((dms) => dms.core.nas.list(cliPrincipal, page.query));
  printTable(out, { none: 'no NAS', header: ['id', 'name', 'host', 'type', 'comment', 'price'], rows: listed.map(nasRow) });
  notePageOfMore(page.offset, listed.length, count, 'NAS');
  return 0;
}

/** `dms nas add NAME --field VALUE …`: as POST /nas. */
export async function nasAdd(name: string, values: Flags, out: Output): Promise<number> {
  // The core validates the body as POST /nas does: its messages name what each field takes.
  const created = await withDms((dms) => dms.core.nas.create(cliPrincipal, { name, ...bodyOf(values, nasAddFields) }));
  out(`added NAS ${created.id} '${created.name}' (${created.type} at ${created.host})`);
  return 0;
}

/** `dms nas rm REF`: as DELETE /nas/{id}; refused while it has shares or a schedule names it. */
export async function nasRm(ref: string, out: Output): Promise<number> {
  const nas = await withDms(async (dms) => {
    const found = await dms.core.nas.show(cliPrincipal, ref);
    await dms.core.nas.destroy(cliPrincipal, String(found.id));
    return found;
  });
  out(`deleted NAS ${nas.id} '${nas.name}'`);
  return 0;
}
