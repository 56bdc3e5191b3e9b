import type { Channel } from '@dms/core';
import { cliPrincipal } from './cli-principal.js';
import { notePartialPage, printTable } from './table.js';
import { withDms, type Output } from './with-dms.js';

function channelRow(channel: Channel): string[] {
  const sources = channel.sources === null ? 'all' : channel.sources.join(',');
  return [String(channel.id), channel.name, channel.type, channel.enabled ? 'yes' : 'no', String(channel.min_level), sources, channel.failing_since ?? '-'];
}

/** `dms channels list`: the notification channels, by id, as GET /notification_channels (no secret is shown). */
export async function channelsList(values: { limit?: string }, out: Output): Promise<number> {
  const { count, notification_channels: channels } = await withDms((dms) =>
    dms.core.notificationChannels.list(cliPrincipal, { sort_by: ['id'], ...(values.limit === undefined ? {} : { limit: [values.limit] }) }),
  );
  printTable(out, {
    none: 'no notification channels',
    header: ['id', 'name', 'type', 'enabled', 'min level', 'sources', 'failing since'],
    rows: channels.map(channelRow),
  });
  notePartialPage(channels.length, count, 'notification channels');
  return 0;
}

/** `dms channels test REF`: sends a test message on the channel now, as POST /notification_channels/{id}/test; exit 1 when it failed. */
export async function channelsTest(ref: string, out: Output): Promise<number> {
  const result = await withDms((dms) => dms.core.notificationChannels.test(cliPrincipal, ref));
  const status = result.status_code === null ? '' : ` (HTTP ${result.status_code})`;
  out(result.outcome === 'delivered' ? `test message delivered${status}` : `test message failed${status}: ${result.error ?? 'unknown error'}`);
  return result.outcome === 'delivered' ? 0 : 1;
}
