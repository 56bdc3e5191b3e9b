import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { canSeeAgentCommunity, canSeeSharePassword, canSeeTrapPassphrases, type Principal } from '@dms/core';
import { type Core } from '@dms/core/runtime';
import type { AppCaller } from '../src/main/router/index.js';
import { adminPassword, openTestDesktop, type TestDesktop } from './test-desktop.js';

let t: TestDesktop;
let admin: AppCaller;

beforeAll(async () => {
  t = await openTestDesktop();
  admin = t.caller();
  await admin.auth.signIn({ username: 'admin', password: adminPassword });
});
afterAll(async () => {
  await t?.close();
});

/** What a failed call carries to the renderer: tRPC code, domain code and message. */
async function failure(call: Promise<unknown>): Promise<{ code: string; domainCode?: string; message: string }> {
  const error = await call.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpcError = error as TRPCError;
  return { code: trpcError.code, domainCode: (trpcError.cause as { code?: string } | undefined)?.code, message: trpcError.message };
}

/** The principal of a fresh key holding exactly this one scope, as the REST server would see it. */
async function keyHolding(controller: string, action: string): Promise<Principal> {
  const { key } = await admin.apiKeys.create({ name: `${controller}-${action}`, api_key_scopes: [{ controller, action }] });
  return t.dms.core.auth.authenticate({ kind: 'bearer', token: key });
}

/** Whether the core refused the call for want of a scope, and which one it named. */
async function missingScope(call: () => unknown): Promise<string | undefined> {
  try {
    await call();
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return /^missing scope (.+)$/.exec(message)?.[1];
  }
}

const nowhere = '999999';
type Check = (core: Core, principal: Principal) => unknown;

/**
 * One core call per scope the picker offers, each checking that scope first: a key holding the
 * scope passes the check (then fails, if at all, for another reason: not found, bad body).
 */
const callsByScope: Record<string, Check> = {
  'nas/index': (core, p) => core.nas.list(p, {}),
  'nas/show': (core, p) => core.nas.show(p, nowhere),
  'nas/create': (core, p) => core.nas.create(p, {}),
  'nas/update': (core, p) => core.nas.update(p, nowhere, {}),
  'nas/destroy': (core, p) => core.nas.destroy(p, nowhere),
  'pools/index': (core, p) => core.pools.list(p, {}),
  'pools/show': (core, p) => core.pools.show(p, nowhere),
  'pools/create': (core, p) => core.pools.create(p, {}),
  'pools/update': (core, p) => core.pools.update(p, nowhere, {}),
  'pools/destroy': (core, p) => core.pools.destroy(p, nowhere),
  'nas_shares/index': (core, p) => core.shares.list(p, { kind: 'all' }, {}),
  'nas_shares/show': (core, p) => core.shares.show(p, { kind: 'all' }, nowhere),
  'nas_shares/create': (core, p) => core.shares.create(p, nowhere, {}),
  'nas_shares/update': (core, p) => core.shares.update(p, { kind: 'all' }, nowhere, {}),
  'nas_shares/destroy': (core, p) => core.shares.destroy(p, { kind: 'all' }, nowhere),
  'nas_shares/test': (core, p) => core.jobs.testSaved(p, { kind: 'all' }, nowhere),
  'nas_shares/scan': (core, p) => core.jobs.scan(p, { kind: 'all' }, nowhere),
  'nas_shares/get_password': async (_core, p) => {
    if (!canSeeSharePassword(p)) throw new Error('missing scope nas_shares / get_password');
  },
  'traps/index': (core, p) => core.traps.list(p, {}),
  'traps/show': (core, p) => core.traps.show(p, nowhere),
  'traps/create': (core, p) => core.traps.create(p, {}),
  'traps/update': (core, p) => core.traps.update(p, nowhere, {}),
  'traps/destroy': (core, p) => core.traps.destroy(p, nowhere),
  'traps/test': (core, p) => core.traps.test(p, nowhere),
  'traps/get_password': async (_core, p) => {
    if (!canSeeTrapPassphrases(p)) throw new Error('missing scope traps / get_password');
  },
  'server_configuration/show': (core, p) => core.snmpConfig.show(p),
  'server_configuration/update': (core, p) => core.snmpConfig.update(p, { location: 1 }),
  'server_configuration/get_password': async (_core, p) => {
    if (!canSeeAgentCommunity(p)) throw new Error('missing scope server_configuration / get_password');
  },
  'api_keys/index': (core, p) => core.apiKeys.list(p, {}),
  'api_keys/show': (core, p) => core.apiKeys.show(p, nowhere),
  'api_keys/create': (core, p) => core.apiKeys.create(p, {}),
  'api_keys/update': (core, p) => core.apiKeys.update(p, nowhere, {}),
  'api_keys/destroy': (core, p) => core.apiKeys.destroy(p, nowhere),
  'users/index': (core, p) => core.users.list(p, {}),
  'users/show': (core, p) => core.users.show(p, nowhere),
  'users/create': (core, p) => core.users.create(p, {}),
  'users/update': (core, p) => core.users.update(p, nowhere, {}),
  'users/destroy': (core, p) => core.users.destroy(p, nowhere),
  'roles/index': (core, p) => core.roles.list(p),
  'roles/show': (core, p) => core.roles.show(p, 'ghost'),
  'roles/create': (core, p) => core.roles.create(p, {}),
  'roles/update': (core, p) => core.roles.update(p, 'ghost', {}),
  'roles/destroy': (core, p) => core.roles.destroy(p, 'ghost'),
  'cors_rules/index': (core, p) => core.corsRules.list(p, {}),
  'cors_rules/show': (core, p) => core.corsRules.show(p, nowhere),
  'cors_rules/create': (core, p) => core.corsRules.create(p, {}),
  'cors_rules/update': (core, p) => core.corsRules.update(p, nowhere, {}),
  'cors_rules/destroy': (core, p) => core.corsRules.destroy(p, nowhere),
  'schedules/index': (core, p) => core.schedules.list(p, {}),
  'schedules/show': (core, p) => core.schedules.show(p, nowhere),
  'schedules/create': (core, p) => core.schedules.create(p, {}),
  'schedules/update': (core, p) => core.schedules.update(p, nowhere, {}),
  'schedules/destroy': (core, p) => core.schedules.destroy(p, nowhere),
  'alerts/index': (core, p) => core.alerts.list(p, {}),
  'alerts/show': (core, p) => core.alerts.show(p, nowhere),
  'alerts/update': (core, p) => core.alerts.update(p, nowhere, { dismissed: true }),
  'alert_settings/index': (core, p) => core.alerts.settings(p),
  'alert_settings/update': (core, p) => core.alerts.updateSetting(p, nowhere, {}),
  'statistics/show': (core, p) => core.statistics.capacity(p, {}),
  'jobs/index': (core, p) => core.jobs.list(p, {}),
  'jobs/show': (core, p) => core.jobs.show(p, nowhere),
  'audit_events/index': (core, p) => core.auditEvents.list(p, {}),
  'settings/show': (core, p) => core.settings.show(p),
  'settings/update': (core, p) => core.settings.update(p, { jwt_enabled: 'yes' }),
  'notification_channels/index': (core, p) => core.notificationChannels.list(p, {}),
  'notification_channels/show': (core, p) => core.notificationChannels.show(p, nowhere),
  'notification_channels/create': (core, p) => core.notificationChannels.create(p, {}),
  'notification_channels/update': (core, p) => core.notificationChannels.update(p, nowhere, {}),
  'notification_channels/destroy': (core, p) => core.notificationChannels.destroy(p, nowhere),
  'notification_channels/test': (core, p) => core.notificationChannels.test(p, nowhere),
  'silences/index': (core, p) => core.silences.list(p, {}),
  'silences/show': (core, p) => core.silences.show(p, nowhere),
  'silences/create': (core, p) => core.silences.create(p, {}),
  'silences/update': (core, p) => core.silences.update(p, nowhere, {}),
  'silences/destroy': (core, p) => core.silences.destroy(p, nowhere),
};
// The REST host checks metrics / index itself (GET /metrics), outside the core's services.
const checkedOutsideTheCore = ['metrics/index'];

describe('apiKeys.scopeCatalogue', () => {
  it('needs a signed-in user', async () => {
    expect((await failure(t.caller().apiKeys.scopeCatalogue())).code).toBe('UNAUTHORIZED');
  });

  it('offers exactly the controller / action pairs the core checks', async () => {
    const { controllers, explicitOnlyActions } = await admin.apiKeys.scopeCatalogue();
    const offered = controllers.flatMap(({ controller, actions }) => actions.map((action) => `${controller}/${action}`));
    expect(offered.toSorted()).toEqual([...Object.keys(callsByScope), ...checkedOutsideTheCore].toSorted());
    expect(explicitOnlyActions).toEqual(['get_password']);
    // A real scope none of the core's calls checks (a made-up one is refused since security round 2, 7).
    const unrelated = await keyHolding('metrics', 'index');
    for (const pair of Object.keys(callsByScope)) {
      const [controller = '', action = ''] = pair.split('/');
      const check = callsByScope[pair]!;
      // Without the scope, the core names exactly this pair; with it, the scope check passes.
      expect(await missingScope(() => check(t.dms.core, unrelated)), pair).toBe(`${controller} / ${action}`);
      expect(await missingScope(async () => check(t.dms.core, await keyHolding(controller, action))), pair).toBeUndefined();
    }
  });

  it('names scopes the core accepts, wildcards included, and the core refuses a malformed one with its field', async () => {
    const { controllers } = await admin.apiKeys.scopeCatalogue();
    const everyScope = [
      { controller: '*', action: '*' },
      ...controllers.flatMap(({ controller, actions }) => [{ controller, action: '*' }, ...actions.map((action) => ({ controller, action }))]),
    ];
    const key = await admin.apiKeys.create({ name: 'everything', api_key_scopes: everyScope });
    expect(key.api_key_scopes).toHaveLength(everyScope.length);
    expect(await failure(admin.apiKeys.create({ name: 'bad', api_key_scopes: [{ controller: 'Nas', action: 'index' }] }))).toMatchObject({
      code: 'BAD_REQUEST',
      domainCode: 'validation',
      message: expect.stringContaining('api_key_scopes[0].controller'),
    });
  });
});

describe('what the admin screens show from the core', () => {
  it('refuses the last admin its demotion and deletion with the core message', async () => {
    expect(await failure(admin.users.delete({ user: 'admin' }))).toMatchObject({ code: 'CONFLICT', message: 'cannot delete admin: it is the last admin' });
    expect(await failure(admin.users.update({ user: 'admin', body: { admin: false } }))).toMatchObject({
      code: 'CONFLICT',
      message: 'cannot demote admin: it is the last admin',
    });
  });

  it('refuses a non-admin the users, CORS rules and settings (FORBIDDEN), but lists its own API keys', async () => {
    await admin.users.create({ username: 'viewer', password: 'a long enough password' });
    const viewer = t.caller();
    await viewer.auth.signIn({ username: 'viewer', password: 'a long enough password' });
    // An operator (the role of a user made without one) holds no users / index (docs/api.md#roles).
    expect(await failure(viewer.users.list())).toMatchObject({ code: 'FORBIDDEN', message: 'missing scope users / index' });
    expect(await failure(viewer.corsRules.list())).toMatchObject({ code: 'FORBIDDEN', domainCode: 'forbidden' });
    expect(await failure(viewer.settings.show())).toMatchObject({ code: 'FORBIDDEN', domainCode: 'forbidden' });
    expect(await viewer.apiKeys.list()).toEqual({ count: 0, api_keys: [] });
    expect((await viewer.apiKeys.scopeCatalogue()).controllers.length).toBeGreaterThan(0);
    // The role menus: every role, built-in first, for any signed-in user who may read roles.
    await admin.users.update({ user: 'viewer', body: { role: 'auditor' } });
    expect((await viewer.roles.list()).roles.map((role) => role.name)).toEqual(['admin', 'operator', 'auditor', 'viewer']);
    expect(await failure(viewer.users.update({ user: 'viewer', body: { role: 'admin' } }))).toMatchObject({ code: 'FORBIDDEN' });
  });
});
