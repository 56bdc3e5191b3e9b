import type { Silence, SilenceMatchers } from '@dms/core';
import { CliError } from './cli-error.js';
import { cliPrincipal } from './cli-principal.js';
import { isoInstantForms, parseIsoInstant } from './iso-instant.js';
import { pageOf } from './list-flags.js';
import { notePageOfMore, printTable } from './table.js';
import { withDms, type Output } from './with-dms.js';

const units = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 } as const;
const durationForms = 'a number and a unit: 90s, 30m, 1h, 1d, 2w';

/** `30m`, `1h`, `1d` … as seconds; refused in the operator's words otherwise. */
export function parseDuration(flag: string, text: string): number {
  const match = /^(\d{1,6})([smhdw])$/.exec(text.trim());
  if (!match || Number(match[1]) === 0) throw new CliError(`--${flag} '${text}' is not a duration: give ${durationForms}`);
  return Number(match[1]) * units[match[2] as keyof typeof units];
}

function matchersText(matchers: SilenceMatchers): string {
  return Object.entries(matchers)
    .map(([field, value]) => `${field}=${String(value)}`)
    .join(' ');
}

function untilText(silence: Silence): string {
  if (silence.until_cleared) return silence.ends_at === null ? 'until cleared' : `cleared ${silence.ends_at}`;
  if (silence.rrule !== null) return `${silence.rrule.replace(/\s*\n\s*/g, ' ')} for ${silence.duration_seconds ?? 0}s`;
  return silence.ends_at ?? '-';
}

/** `dms silence list`: as GET /silences, newest first. */
export async function silenceList(values: { limit?: string; offset?: string }, out: Output): Promise<number> {
  const page = pageOf(values);
  const { count, silences } = await withDms((dms) => dms.core.silences.list(cliPrincipal, page.query));
  printTable(out, {
    none: 'no silences',
    header: ['id', 'matchers', 'starts', 'ends', 'active', 'reason'],
    rows: silences.map((silence) => [
      String(silence.id),
      matchersText(silence.matchers),
      silence.starts_at,
      untilText(silence),
      silence.active ? 'yes' : 'no',
      silence.reason,
    ]),
  });
  notePageOfMore(page.offset, silences.length, count, 'silences');
  return 0;
}

export interface SilenceAddFlags {
  source?: string;
  resourceType?: string;
  resourceId?: string;
  nas?: string;
  pool?: string;
  maxLevel?: string;
  for?: string;
  until?: string;
  untilCleared?: boolean;
  rrule?: string;
  duration?: string;
  reason?: string;
}

function instant(flag: string, text: string): string {
  const at = parseIsoInstant(text);
  if (at === undefined) throw new CliError(`--${flag} '${text}' is not an ISO 8601 date: give ${isoInstantForms}`);
  return at;
}

/** When the silence ends, from exactly one of --for, --until, --until-cleared and --rrule (with --duration). */
function endOf(values: SilenceAddFlags, now: Date): Record<string, unknown> {
  const ways = [values.for, values.until, values.untilCleared ? true : undefined, values.rrule].filter((value) => value !== undefined).length;
  if (ways !== 1) throw new CliError('say when it ends with exactly one of --for 1h, --until ISO, --until-cleared and --rrule TEXT --duration 2h');
  if (values.rrule === undefined && values.duration !== undefined) throw new CliError('--duration is the length of each --rrule window');
  if (values.for !== undefined) return { ends_at: new Date(now.getTime() + parseDuration('for', values.for) * 1000).toISOString() };
  if (values.until !== undefined) return { ends_at: instant('until', values.until) };
  if (values.untilCleared) return { until_cleared: true };
  if (values.duration === undefined) throw new CliError('--rrule needs --duration: how long each window lasts (e.g. 2h)');
  // A shell passes `\n` as two characters: the rule's two lines may be written on one.
  return { rrule: values.rrule!.replace(/\\n/g, '\n'), duration_seconds: parseDuration('duration', values.duration) };
}

/** `dms silence add --reason TEXT MATCHERS END`: as POST /silences, the NAS and pool named by id or name. */
export async function silenceAdd(values: SilenceAddFlags, out: Output): Promise<number> {
  if (values.reason === undefined) throw new CliError('--reason is required: why these alerts are silenced');
  const created = await withDms(async (dms) => {
    const matchers: Record<string, unknown> = {
      ...(values.source === undefined ? {} : { source: values.source }),
      ...(values.resourceType === undefined ? {} : { resource_type: values.resourceType }),
      ...(values.resourceId === undefined ? {} : { resource_id: values.resourceId }),
      ...(values.nas === undefined ? {} : { nas_id: (await dms.core.nas.show(cliPrincipal, values.nas)).id }),
      ...(values.pool === undefined ? {} : { pool_id: (await dms.core.pools.show(cliPrincipal, values.pool)).id }),
      ...(values.maxLevel === undefined ? {} : { max_level: Number(values.maxLevel) }),
    };
    return dms.core.silences.create(cliPrincipal, { matchers, ...endOf(values, dms.core.clock()), reason: values.reason });
  });
  out(
    `added silence ${created.id} (${matchersText(created.matchers)}; ${created.active ? 'holding now' : `from ${created.window_starts_at ?? created.starts_at}`}, ends ${untilText(created)})`,
  );
  return 0;
}

/** `dms silence delete ID`: as DELETE /silences/{id}; an alert it held that is still open is told once by the running service. */
export async function silenceDelete(id: string, out: Output): Promise<number> {
  await withDms((dms) => dms.core.silences.destroy(cliPrincipal, id));
  out(`deleted silence ${id}`);
  return 0;
}
