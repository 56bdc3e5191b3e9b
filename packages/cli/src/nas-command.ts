import { nasCreateSchema, type Nas } from '@dms/core';
import { CliError } from './cli-error.js';
import { cliPrincipal } from './cli-principal.js';
import { pageOf, pageFlags } from './list-flags.js';
import { bodyOf, fieldFlags, parseFlags } from './schema-flags.js';
import { notePageOfMore, printTable } from './table.js';
import { withDms, type Output } from './with-dms.js';

/** The flags of `nas add`: the fields of the core's NAS input, the name aside (given first). */
const addFields = fieldFlags(nasCreateSchema, ['name']);

export const nasUsage = `usage: dms nas list [--limit N] [--offset N]
       dms nas add NAME --host HOST --type TYPE [--comment TEXT] [--price AMOUNT]`;

function nasRow(nas: Nas): string[] {
  return [String(nas.id), nas.name, nas.host, nas.type, nas.comment ?? '-', nas.price ?? '-'];
}

/** `dms nas list|add`: the NAS devices, as GET and POST /nas, as the CLI. */
export async function nas(args: string[], out: Output): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'list') {
    const { positionals, values } = parseFlags(rest, pageFlags, nasUsage);
    if (positionals.length > 0) throw new CliError(nasUsage);
    const page = pageOf(values);
    const { count, nas: listed } = await withDms((dms) => dms.core.nas.list(cliPrincipal, page.query));
    printTable(out, { none: 'no NAS', header: ['id', 'name', 'host', 'type', 'comment', 'price'], rows: listed.map(nasRow) });
    notePageOfMore(page.offset, listed.length, count, 'NAS');
    return 0;
  }
  if (sub === 'add') {
    const { positionals, values } = parseFlags(rest, addFields, nasUsage);
    const [name, ...extra] = positionals;
    if (name === undefined || extra.length > 0) throw new CliError(nasUsage);
    // The core validates the body as POST /nas does: its messages name what each field takes.
    const created = await withDms((dms) => dms.core.nas.create(cliPrincipal, { name, ...bodyOf(values, addFields) }));
    out(`added NAS ${created.id} '${created.name}' (${created.type} at ${created.host})`);
    return 0;
  }
  throw new CliError(nasUsage);
}
