import type { NotificationChannelRecord, DigestItem } from '../ports/notification-store.js';
import type { Severity } from '../domain/trap.js';
import { levelNames, type DigestEntry, type NotificationMessage } from '../domain/notification-message.js';
import { notificationDefaults } from '../defaults.js';

const hourMs = 60 * 60 * 1000;
const dayMs = 24 * hourMs;

/**
 * The end of the channel's latest period at `now` (docs/decisions/173-notification-digests.md):
 * the hour just begun for `hourly`, the latest `digest_hour`:00 UTC for `daily`, `now` itself
 * for `immediately` (what a channel switched from a digest still had waiting goes at once).
 */
export function digestPeriodEnd(channel: Pick<NotificationChannelRecord, 'digest' | 'digest_hour'>, now: Date): Date {
  if (channel.digest === 'immediately') return now;
  const hour = Math.floor(now.getTime() / hourMs) * hourMs;
  if (channel.digest === 'hourly') return new Date(hour);
  const day = Math.floor(now.getTime() / dayMs) * dayMs + channel.digest_hour * hourMs;
  return new Date(day <= now.getTime() ? day : day - dayMs);
}

/** How long a period lasts. */
function periodMs(digest: NotificationChannelRecord['digest']): number {
  return digest === 'daily' ? dayMs : digest === 'hourly' ? hourMs : 0;
}

const clock = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

/** One line per event, as a chat or ntfy shows the digest. */
function entryLine(entry: DigestEntry): string {
  return `${entry.timestamp.slice(11, 16)} ${entry.title.replace(/^\[dms\] /, '')}: ${entry.text}`;
}

/**
 * The channel's digest of the items (oldest first) of the period ending at `until`, as one
 * message every channel type renders: `title` counts what was raised and cleared, `text` lists
 * one line per event, `data.digest` carries the events themselves (a webhook's body). At most
 * `digestMaxEvents` are listed; the rest are counted in `omitted`.
 */
export function digestMessage(channel: Pick<NotificationChannelRecord, 'id' | 'digest'>, items: readonly DigestItem[], until: Date): NotificationMessage {
  const entries = items.map(({ message }) => toEntry(message)).filter((entry): entry is DigestEntry => entry !== undefined);
  const listed = entries.slice(0, notificationDefaults.digestMaxEvents);
  const omitted = entries.length - listed.length;
  const oldest = items[0]?.created_at;
  const start = until.getTime() - periodMs(channel.digest);
  const from = new Date(oldest === undefined ? start : Math.min(start, Date.parse(oldest))).toISOString();
  const to = until.toISOString();
  const raised = entries.filter((entry) => entry.type === 'alert.raised').length;
  const cleared = entries.filter((entry) => entry.type === 'alert.cleared').length;
  const others = entries.length - raised - cleared;
  const level = entries.reduce<Severity>((highest, entry) => (entry.level > highest ? entry.level : highest), 1);
  const counts = [`${raised} raised`, `${cleared} cleared`, ...(others > 0 ? [`${others} other`] : [])].join(', ');
  const lines = listed.map(entryLine);
  if (omitted > 0) lines.push(`… and ${omitted} more`);
  return {
    id: `evt_digest_${channel.id}_${to.replace(/[-:.]/g, '')}`,
    type: 'digest',
    timestamp: to,
    level,
    source: 'digest',
    title: `[dms] ${channel.digest} digest ${clock(from)} to ${clock(to)} UTC: ${counts} (highest ${levelNames[level]})`,
    text: lines.join('\n'),
    data: { digest: { period: channel.digest, from, to, raised, cleared, count: entries.length, omitted, events: listed } },
  };
}

function toEntry(message: NotificationMessage): DigestEntry | undefined {
  const { id, type, timestamp, level, source, title, text, data } = message;
  if (type === 'digest' || type === 'test' || type === 'trap' || !('alert' in data || 'job' in data)) return undefined;
  return { id, type, timestamp, level, source, title, text, data };
}
