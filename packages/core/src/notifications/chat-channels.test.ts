import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../adapters/sqlite/sqlite-storage.js';
import { openTestDms, type TestDms } from '../testing/test-dms.js';
import { systemPrincipal } from '../scopes/principal.js';
import { startHttpReceiver, type HttpReceiver } from '../testing/http-receiver.js';

/**
 * ntfy, Slack, Discord and Teams channels (issue 44) against local receivers: each gets an
 * alert's raise in its own format (ntfy's headers and text body, the chat services' JSON shapes).
 */
let t: TestDms;
let receiver: HttpReceiver;
beforeAll(async () => {
  t = await openTestDms({ adapter: 'sqlite' });
  receiver = await startHttpReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const byPath = (path: string) => {
  const found = receiver.requests.filter((request) => request.path === path);
  expect(found, path).toHaveLength(1);
  return found[0]!;
};

describe('chat and push channels', () => {
  it('each type posts its own format of one alert', async () => {
    const { core, notifications } = t.dms;
    const make = (type: string, settings: Record<string, unknown>) =>
      core.notificationChannels.create(systemPrincipal, { name: `${type}-channel`, type, min_level: 1, settings });
    await make('ntfy', { url: `${receiver.url}/ntfy/dms-alerts`, token: 'tk_ntfy_secret' });
    await make('slack', { url: `${receiver.url}/slack` });
    await make('discord', { url: `${receiver.url}/discord` });
    await make('teams', { url: `${receiver.url}/teams` });
    await core.alerts.sight('share_unreachable', { type: 'nas_shares', id: '12', name: 'projects <&>' }, 'cannot connect: refused');
    await notifications.runOnce();

    const ntfy = byPath('/ntfy/dms-alerts');
    expect(ntfy.headers).toMatchObject({ authorization: 'Bearer tk_ntfy_secret', priority: '4', tags: 'rotating_light' });
    expect(ntfy.headers['title']).toBe('[dms] error: share_unreachable raised (nas_shares projects <&>)');
    expect(ntfy.body).toBe('cannot connect: refused');

    const slack = JSON.parse(byPath('/slack').body) as { text: string; blocks: Array<{ type: string; text: { type: string; text: string } }> };
    expect(slack.text).toBe('[dms] error: share_unreachable raised (nas_shares projects &lt;&amp;&gt;)');
    expect(slack.blocks).toEqual([{ type: 'section', text: { type: 'mrkdwn', text: `*${slack.text}*\ncannot connect: refused` } }]);

    const discord = JSON.parse(byPath('/discord').body) as { allowed_mentions: unknown; embeds: Array<Record<string, unknown>> };
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    expect(discord.embeds).toEqual([
      {
        title: '[dms] error: share_unreachable raised (nas_shares projects <&>)',
        description: 'cannot connect: refused',
        color: 0xd00000,
        timestamp: expect.any(String),
      },
    ]);

    const teams = JSON.parse(byPath('/teams').body) as {
      type: string;
      attachments: Array<{ contentType: string; content: { type: string; body: unknown[] } }>;
    };
    expect(teams.type).toBe('message');
    expect(teams.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(teams.attachments[0]!.content).toMatchObject({
      type: 'AdaptiveCard',
      body: [
        { type: 'TextBlock', text: '[dms] error: share_unreachable raised (nas_shares projects <&>)', weight: 'Bolder' },
        { type: 'TextBlock', text: 'cannot connect: refused' },
      ],
    });
    for (const request of receiver.requests) expect(request.headers['content-type'], request.path).toMatch(/^(application\/json|text\/plain)/);
    // Finished deliveries are purged once past the retention; one still due would not be.
    await core.alerts.clear('share_unreachable', { type: 'nas_shares', id: '12', name: 'projects <&>' });
    // A second connection to the database, as the retention purge's store reads it (no secret is opened).
    const storage = openSqliteStorage({ file: join(t.dataDir, 'dms.sqlite') });
    try {
      expect(await storage.notificationDeliveries.purgeFinished(new Date(Date.now() + 60_000).toISOString(), 100)).toBe(4);
    } finally {
      await storage.close();
    }
    const { deliveries } = await core.notificationChannels.deliveries(systemPrincipal, 'slack-channel', {});
    expect(deliveries.map((delivery) => [delivery.event_type, delivery.outcome])).toEqual([['alert.cleared', 'pending']]);
  });

  it('ntfy takes a non-ASCII title RFC 2047-encoded, and the test message at priority 1', async () => {
    const { core } = t.dms;
    await core.notificationChannels.create(systemPrincipal, { name: 'ntfy-é', type: 'ntfy', settings: { url: `${receiver.url}/ntfy/test` } });
    expect(await core.notificationChannels.test(systemPrincipal, 'ntfy-é')).toEqual({ outcome: 'delivered', status_code: 200, error: null });
    const sent = byPath('/ntfy/test');
    expect(sent.headers['priority']).toBe('1');
    expect(sent.headers['authorization']).toBeUndefined();
    const encoded = /^=\?UTF-8\?B\?(.+)\?=$/.exec(String(sent.headers['title']));
    expect(Buffer.from(encoded![1]!, 'base64').toString('utf8')).toBe('[dms] test message for channel ntfy-é');
  });
});
