import { describe, expect, it } from 'vitest';
import { digestMessage } from './notification-digest.js';
import { alertMessage } from './notification-outbox.js';
import { webhookBody, slackBody } from '../adapters/notify/http-channels.js';
import { emailHtml, emailText } from '../adapters/notify/email-channel.js';
import type { AlertRecord } from '../ports/alert-store.js';
import type { DigestMessageData } from '../domain/notification-message.js';
import { notificationDefaults } from '../defaults.js';

/** How each channel type renders a digest (docs/decisions/173-notification-digests.md). */
const alert = (id: number, level: 3 | 4, cleared: string | null): AlertRecord =>
  ({
    id,
    source: 'share_unreachable',
    level,
    resource_type: 'nas_shares',
    resource_id: String(id),
    resource_name: `<share-${id}>`,
    message: 'gone',
    raised_at: '2026-11-28T08:05:00.000Z',
    cleared_at: cleared,
  }) as AlertRecord;

const items = [
  { message: alertMessage('alert.raised', alert(1, 3, null), 'evt_1', new Date('2026-11-28T08:05:00.000Z')), created_at: '2026-11-28T08:05:00.000Z' },
  { message: alertMessage('alert.raised', alert(2, 4, null), 'evt_2', new Date('2026-11-28T08:06:00.000Z')), created_at: '2026-11-28T08:06:00.000Z' },
  {
    message: alertMessage('alert.cleared', alert(1, 3, '2026-11-28T08:40:00.000Z'), 'evt_3', new Date('2026-11-28T08:40:00.000Z')),
    created_at: '2026-11-28T08:40:00.000Z',
  },
];
const until = new Date('2026-11-28T09:00:00.000Z');

describe('a digest', () => {
  const message = digestMessage({ id: 7, digest: 'hourly' }, items, until);

  it('is one webhook body of type digest listing the period’s events, at the highest level', () => {
    const body = JSON.parse(webhookBody(message)) as { id: string; type: string; level: number; data: DigestMessageData };
    expect(body).toMatchObject({ id: 'evt_digest_7_20261128T090000000Z', type: 'digest', level: 4 });
    expect(body.data.digest).toMatchObject({
      period: 'hourly',
      from: '2026-11-28T08:00:00.000Z',
      to: '2026-11-28T09:00:00.000Z',
      raised: 2,
      cleared: 1,
      count: 3,
      omitted: 0,
    });
    expect(body.data.digest.events.map((event) => event.id)).toEqual(['evt_1', 'evt_2', 'evt_3']);
  });

  it('is counts in the title and a line per event in text, e-mail and chat, escaped in HTML', () => {
    expect(message.title).toBe('[dms] hourly digest 2026-11-28 08:00 to 2026-11-28 09:00 UTC: 2 raised, 1 cleared (highest error)');
    expect(message.text.split('\n')).toEqual([
      '08:05 warning: share_unreachable raised (nas_shares <share-1>): gone',
      '08:06 error: share_unreachable raised (nas_shares <share-2>): gone',
      '08:40 warning: share_unreachable cleared (nas_shares <share-1>): gone',
    ]);
    expect(emailText(message)).toContain('08:06 error: share_unreachable raised');
    expect(emailHtml(message)).toContain('<ul><li>08:05 warning: share_unreachable raised (nas_shares &lt;share-1&gt;): gone</li><li>');
    expect(JSON.stringify(slackBody(message))).toContain('08:40 warning: share_unreachable cleared');
  });

  it('lists at most digestMaxEvents and counts the rest', () => {
    const many = Array.from({ length: notificationDefaults.digestMaxEvents + 3 }, () => items[0]!);
    const big = digestMessage({ id: 7, digest: 'daily' }, many, until).data as DigestMessageData;
    expect(big.digest).toMatchObject({ count: notificationDefaults.digestMaxEvents + 3, omitted: 3, raised: notificationDefaults.digestMaxEvents + 3 });
    expect(big.digest.events).toHaveLength(notificationDefaults.digestMaxEvents);
    // a daily period starts 24 hours before its end
    expect(big.digest.from).toBe('2026-11-27T09:00:00.000Z');
  });
});
