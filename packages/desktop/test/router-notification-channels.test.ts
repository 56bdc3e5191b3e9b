import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { Principal } from '@dms/core';
import type { Core } from '@dms/core/runtime';
import { pollUntil, startHttpReceiver, type HttpReceiver, type ReceivedRequest } from '@dms/core/testing';
import { createAppCaller, type AppCaller } from '../src/main/router/index.js';
import { notificationChannelsRouter } from '../src/main/router/notification-channels.js';
import { DesktopSession } from '../src/main/session.js';
import { adminPassword, openTestDesktop, type TestDesktop } from './test-desktop.js';

// What the Notifications screen relies on from the router (issue 44, docs/api.md#notification-channels):
// the core's channel operations over a real SQLite core and a real webhook receiver on
// 127.0.0.1, each procedure gated by the scope its REST operation needs, admins only.

let t: TestDesktop;
let admin: AppCaller;
let receiver: HttpReceiver;

beforeAll(async () => {
  [t, receiver] = await Promise.all([openTestDesktop(), startHttpReceiver()]);
  admin = t.caller();
  await admin.auth.signIn({ username: 'admin', password: adminPassword });
});
afterAll(async () => {
  await Promise.all([t?.close(), receiver?.close()]);
});

/** The TRPCError a call rejects with: its tRPC code, its message and the core's messages. */
async function failure(call: Promise<unknown>): Promise<{ code: string; message: string; messages: string[] }> {
  const error = await call.then(
    () => expect.fail('expected the call to fail'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpcError = error as TRPCError;
  return { code: trpcError.code, message: trpcError.message, messages: (trpcError.cause as { messages?: string[] } | undefined)?.messages ?? [] };
}

/** A receiver's check of a Standard Webhooks signature, written from the spec, not from the sender's code. */
function signedWith(secret: string, request: ReceivedRequest): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`)
    .digest('base64');
  return request.headers['webhook-signature'] === `v1,${expected}`;
}

describe('notificationChannels', () => {
  it('creates a webhook whose secret is answered once, tests it against a real receiver, and lists its deliveries', async () => {
    const created = await admin.notificationChannels.create({ name: 'ops-hook', type: 'webhook', settings: { url: `${receiver.url}/hook` } });
    expect(created.secret).toMatch(/^whsec_/);
    const secret = created.secret!;
    expect(JSON.stringify(await admin.notificationChannels.list())).not.toContain(secret);
    expect(JSON.stringify(await admin.notificationChannels.show({ channel: 'ops-hook' }))).not.toContain(secret);

    expect(await admin.notificationChannels.test({ channel: created.id })).toEqual({ outcome: 'delivered', status_code: 200, error: null });
    const [test] = receiver.requests;
    expect(JSON.parse(test!.body)).toMatchObject({ type: 'test', data: { test: true } });
    expect(signedWith(secret, test!)).toBe(true);
    // A test is sent at once, not queued: the channel has no delivery yet.
    expect(await admin.notificationChannels.latestDeliveries({ ids: [created.id] })).toEqual([{ channel_id: created.id, delivery: null }]);

    await t.dms.core.alerts.sight('share_unreachable', { type: 'nas_shares', id: '9001', name: 'projects' }, 'unreachable');
    const { deliveries } = await pollUntil(
      () => admin.notificationChannels.deliveries({ channel: created.id }),
      (page) => page.deliveries[0]?.outcome === 'delivered',
      'the alert delivered',
    );
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ event_type: 'alert.raised', attempts: 1, status_code: 200, error: null, next_attempt_at: null });
    expect(signedWith(secret, receiver.requests.at(-1)!)).toBe(true);
    const [latest] = await admin.notificationChannels.latestDeliveries({ ids: [created.id] });
    expect(latest).toEqual({ channel_id: created.id, delivery: deliveries[0] });

    expect(await admin.notificationChannels.update({ channel: created.id, body: { enabled: false, min_level: 4 } })).toMatchObject({
      enabled: false,
      min_level: 4,
    });
    await admin.notificationChannels.delete({ channel: 'ops-hook' });
    expect((await admin.notificationChannels.list()).count).toBe(0);
    // A table reloading as the channel goes: no delivery, rather than a failure.
    expect(await admin.notificationChannels.latestDeliveries({ ids: [created.id] })).toEqual([{ channel_id: created.id, delivery: null }]);
  });

  it('answers a refused connection as a failed test with its reason, and a setting refused with its field', async () => {
    const closed = await startHttpReceiver();
    await closed.close();
    const channel = await admin.notificationChannels.create({
      name: 'nobody-home',
      type: 'ntfy',
      settings: { url: `${closed.url}/topic`, token: 'tk_secret' },
    });
    const result = await admin.notificationChannels.test({ channel: channel.id });
    expect(result).toMatchObject({ outcome: 'failed', status_code: null });
    expect(result.error).toMatch(/ECONNREFUSED/);
    expect(JSON.stringify(channel)).not.toContain('tk_secret');

    const refused = await failure(admin.notificationChannels.create({ name: 'ftp-hook', type: 'webhook', settings: { url: 'ftp://example.com/hook' } }));
    expect(refused.code).toBe('BAD_REQUEST');
    expect(refused.messages).toContain('settings.url must be an http:// or https:// URL without user or password in it');
    await admin.notificationChannels.delete({ channel: channel.id });
  });
});

describe('notificationChannels scopes', () => {
  /** Each procedure, the notification_channels action its REST operation needs, and a call of it (on a channel that is not there). */
  const nowhere = 999_999;
  const procedures: Record<string, { action: string; call: (caller: AppCaller) => Promise<unknown> }> = {
    list: { action: 'index', call: (caller) => caller.notificationChannels.list() },
    show: { action: 'show', call: (caller) => caller.notificationChannels.show({ channel: nowhere }) },
    create: { action: 'create', call: (caller) => caller.notificationChannels.create({ name: 'x', type: 'webhook', settings: {} }) },
    update: { action: 'update', call: (caller) => caller.notificationChannels.update({ channel: nowhere, body: {} }) },
    delete: { action: 'destroy', call: (caller) => caller.notificationChannels.delete({ channel: nowhere }) },
    test: { action: 'test', call: (caller) => caller.notificationChannels.test({ channel: nowhere }) },
    deliveries: { action: 'show', call: (caller) => caller.notificationChannels.deliveries({ channel: nowhere }) },
    latestDeliveries: { action: 'show', call: (caller) => caller.notificationChannels.latestDeliveries({ ids: [nowhere] }) },
  };

  /** A caller whose every call the core sees as made with `principal` (an API key, as REST would present it). */
  function callerAs(principal: Principal): AppCaller {
    const session = new DesktopSession();
    session.signIn({ kind: 'session', userId: 0, username: 'key-holder', credentialVersion: '', sessionId: 'none' });
    const core = { ...t.dms.core, access: { authenticateRequest: async () => principal } } as unknown as Core;
    return createAppCaller({ core, snmpAgent: () => t.dms.snmpAgent(), session });
  }

  async function keyHolding(action: string): Promise<Principal> {
    const { key } = await admin.apiKeys.create({ name: `channels-${action}`, api_key_scopes: [{ controller: 'notification_channels', action }] });
    return t.dms.core.auth.authenticate({ kind: 'bearer', token: key });
  }

  /** The scope the core said was missing, if that is why the call failed. */
  const missingScope = (call: Promise<unknown>) =>
    call.then(
      () => undefined,
      (error: unknown) => /^missing scope (.+)$/.exec(error instanceof Error ? error.message : '')?.[1],
    );

  it('covers every procedure of the router', () => {
    expect(Object.keys(notificationChannelsRouter._def.procedures).toSorted()).toEqual(Object.keys(procedures).toSorted());
  });

  it("needs the REST operation's scope in each procedure: a key holding it passes the check, one holding another action is refused", async () => {
    const keys = new Map<string, Principal>();
    for (const action of new Set(Object.values(procedures).map((procedure) => procedure.action))) keys.set(action, await keyHolding(action));
    for (const [name, { action, call }] of Object.entries(procedures)) {
      expect(await missingScope(call(callerAs(keys.get(action)!))), name).toBeUndefined();
      const other = action === 'index' ? 'test' : 'index';
      expect(await missingScope(call(callerAs(keys.get(other)!))), name).toBe(`notification_channels / ${action}`);
    }
  });

  it('refuses an operator every procedure (its role holds no notification_channels scope), with the core message', async () => {
    await admin.users.create({ username: 'operator', password: 'an operator password, long enough' });
    const operator = t.caller();
    await operator.auth.signIn({ username: 'operator', password: 'an operator password, long enough' });
    for (const [name, { call, action }] of Object.entries(procedures)) {
      expect(await failure(call(operator)), name).toMatchObject({ code: 'FORBIDDEN', message: `missing scope notification_channels / ${action}` });
    }
  });
});
