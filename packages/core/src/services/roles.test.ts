import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Principal } from '../scopes/principal.js';
import { builtInRole } from '../scopes/built-in-roles.js';
import { isAllowed } from '../scopes/scope-check.js';
import { scopeCatalogue } from '../scopes/scope-catalogue.js';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import { outcomeOf, refusalOf } from '../testing/domain-outcome.js';

/**
 * Roles (issue 46, docs/decisions/176-roles.md): a user's role's scopes gate what it does, read
 * at each request; keys may carry a role, still bounded by their creator. The REST matrix of
 * every route × every built-in role: http-api src/scope-matrix.test.ts.
 */
const all = { kind: 'all' } as const;
const password = 'role-password-1';

describeOnEachAdapter('roles', (open) => {
  let t: TestCore;
  const admin = () => t.asUser(testAdmin.username, testAdmin.password);
  const as = (username: string) => t.asUser(username, password);
  const addUser = async (username: string, body: Record<string, unknown>) => t.core.users.create(await admin(), { username, password, ...body });
  beforeEach(async () => {
    t = await open();
  });
  afterEach(() => t.close());

  it('each built-in role holds what docs/api.md#roles says, and no role but admin reveals a secret', async () => {
    const principalOf = (role: string): Principal => ({
      kind: 'user',
      userId: 9,
      username: 'u',
      role,
      admin: role === 'admin',
      scopes: builtInRole(role)!.scopes,
    });
    const can = (role: string, controller: string, action: string) => isAllowed(principalOf(role), controller, action);
    for (const role of ['operator', 'auditor', 'viewer']) {
      for (const { controller } of scopeCatalogue) expect(can(role, controller, 'get_password'), `${role} ${controller}`).toBe(false);
    }
    expect(can('admin', 'nas_shares', 'get_password')).toBe(true);
    // viewer: the inventory and its status, not the audit log, users, keys or settings
    expect([can('viewer', 'nas_shares', 'index'), can('viewer', 'alerts', 'show'), can('viewer', 'metrics', 'index')]).toEqual([true, true, true]);
    expect([
      can('viewer', 'audit_events', 'index'),
      can('viewer', 'users', 'index'),
      can('viewer', 'settings', 'show'),
      can('viewer', 'nas', 'create'),
    ]).toEqual([false, false, false, false]);
    // auditor: every read, no write, no test or scan
    for (const { controller, actions } of scopeCatalogue) {
      for (const action of actions as readonly string[]) {
        expect(can('auditor', controller, action), `auditor ${controller} / ${action}`).toBe(action === 'index' || action === 'show');
      }
    }
    // operator: runs and manages the inventory, not users, settings, channels
    expect([can('operator', 'nas_shares', 'scan'), can('operator', 'schedules', 'create'), can('operator', 'pools', 'destroy')]).toEqual([true, true, true]);
    expect([can('operator', 'users', 'index'), can('operator', 'settings', 'update'), can('operator', 'notification_channels', 'index')]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("a user's role gates its calls, and a change of role applies at its next request", async () => {
    await addUser('vera', { role: 'viewer' });
    expect(await outcomeOf(t.core.nas.list(await as('vera'), {}))).toBe('ok');
    expect(await outcomeOf(t.core.nas.create(await as('vera'), { name: 'n1', host: 'h', type: 'local' }))).toBe('forbidden');
    expect(await outcomeOf(t.core.auditEvents.list(await as('vera'), {}))).toBe('forbidden');
    await t.core.users.update(await admin(), 'vera', { role: 'operator' });
    expect(await outcomeOf(t.core.nas.create(await as('vera'), { name: 'n1', host: 'h', type: 'local' }))).toBe('ok');
    expect(await outcomeOf(t.core.users.list(await as('vera'), {}))).toBe('forbidden');
    await t.core.users.update(await admin(), 'vera', { role: 'auditor' });
    expect(await outcomeOf(t.core.auditEvents.list(await as('vera'), {}))).toBe('ok');
    expect(await outcomeOf(t.core.users.list(await as('vera'), {}))).toBe('ok');
    expect(await outcomeOf(t.core.users.update(await as('vera'), 'vera', { role: 'admin' }))).toBe('forbidden');
    expect(await outcomeOf(t.core.nas.create(await as('vera'), { name: 'n2', host: 'h', type: 'local' }))).toBe('forbidden');
  });

  it('admin stays in answers, true exactly for role admin; admin: true/false maps onto roles; both must agree', async () => {
    expect(await addUser('plain', {})).toMatchObject({ role: 'operator', admin: false });
    expect(await addUser('boss', { admin: true })).toMatchObject({ role: 'admin', admin: true });
    expect(await addUser('vic', { role: 'viewer' })).toMatchObject({ role: 'viewer', admin: false });
    expect(await t.core.users.update(await admin(), 'boss', { admin: false })).toMatchObject({ role: 'operator', admin: false });
    // A GET body sent back: admin false beside the role keeps the role.
    expect(await t.core.users.update(await admin(), 'vic', { admin: false, role: 'viewer' })).toMatchObject({ role: 'viewer' });
    expect(await t.core.users.update(await admin(), 'vic', { admin: false })).toMatchObject({ role: 'viewer' });
    expect(await t.core.users.update(await admin(), 'vic', { admin: true })).toMatchObject({ role: 'admin', admin: true });
    const mismatch = await refusalOf(t.core.users.update(await admin(), 'vic', { admin: true, role: 'viewer' }));
    expect(mismatch.code).toBe('validation');
    expect(mismatch.messages.join(' ')).toContain('admin is true exactly for the role admin');
    const unknown = await refusalOf(addUser('nobody', { role: 'ghost' }));
    expect(unknown.details['role']).toEqual([{ error: 'not_found', value: 'ghost' }]);
    expect(unknown.messages.join(' ')).toContain('admin, operator, auditor, viewer');
    // The last admin keeps the role.
    for (const other of ['boss', 'vic']) await t.core.users.update(await admin(), other, { role: 'viewer' });
    expect(await outcomeOf(t.core.users.update(await admin(), 'admin', { role: 'auditor' }))).toBe('conflict');
  });

  it('a change of role is audited with from and to', async () => {
    await addUser('ann', { role: 'viewer' });
    await t.core.users.update(await admin(), 'ann', { role: 'auditor' });
    const { audit_events: events } = await t.core.auditEvents.list(await admin(), {});
    expect(events.find((event) => event.action === 'update')).toMatchObject({
      resource: { type: 'users', name: 'ann' },
      changes: { role: { from: 'viewer', to: 'auditor' } },
    });
  });

  it('custom roles: CRUD for an admin, built-ins read-only, a held role not deleted, its change applies to holders at once', async () => {
    const body = { name: 'scanner', description: 'scans shares', scopes: [{ controller: 'nas_shares', action: 'scan' }] };
    expect(await t.core.roles.create(await admin(), body)).toEqual({ ...body, builtin: false });
    expect(await outcomeOf(t.core.roles.create(await admin(), body))).toBe('conflict');
    const builtInName = await refusalOf(t.core.roles.create(await admin(), { ...body, name: 'viewer' }));
    expect(builtInName.messages.join(' ')).toContain('built-in');
    for (const call of [t.core.roles.update(await admin(), 'viewer', { scopes: body.scopes }), t.core.roles.destroy(await admin(), 'admin')]) {
      const refusal = await refusalOf(call);
      expect(refusal.code).toBe('conflict');
      expect(refusal.messages.join(' ')).toContain('is a built-in role');
    }
    const { roles } = await t.core.roles.list(await admin());
    expect(roles.map((role) => role.name)).toEqual(['admin', 'operator', 'auditor', 'viewer', 'scanner']);
    await addUser('sam', { role: 'scanner' });
    expect(await outcomeOf(t.core.nas.list(await as('sam'), {}))).toBe('forbidden');
    await t.core.roles.update(await admin(), 'scanner', { scopes: [{ controller: 'nas', action: 'index' }] });
    expect(await outcomeOf(t.core.nas.list(await as('sam'), {}))).toBe('ok');
    const held = await refusalOf(t.core.roles.destroy(await admin(), 'scanner'));
    expect(held.code).toBe('conflict');
    expect(held.messages.join(' ')).toContain('held by 1 user(s) and 0 API key(s)');
    expect(await outcomeOf(t.core.roles.create(await as('sam'), { ...body, name: 'mine' }))).toBe('forbidden');
    await t.core.users.update(await admin(), 'sam', { role: 'viewer' });
    expect(await outcomeOf(t.core.roles.destroy(await admin(), 'scanner'))).toBe('ok');
    expect(await outcomeOf(t.core.roles.show(await admin(), 'scanner'))).toBe('not_found');
  });

  it("a key carries a role or scopes, exactly one; a role key is still bounded by its creator's role at each request", async () => {
    await addUser('opal', { role: 'operator' });
    const both = await refusalOf(
      t.core.apiKeys.create(await as('opal'), { name: 'k', role: 'viewer', api_key_scopes: [{ controller: 'nas', action: 'index' }] }),
    );
    expect(both.messages.join(' ')).toContain('not both');
    expect(await outcomeOf(t.core.apiKeys.create(await as('opal'), { name: 'k' }))).toBe('validation');
    const created = await t.core.apiKeys.create(await as('opal'), { name: 'k', role: 'auditor' });
    expect(created).toMatchObject({ role: 'auditor', api_key_scopes: builtInRole('auditor')!.scopes });
    const key = () => t.asBearer(created.key);
    // auditor's reads, within the operator's: NAS yes, users and the audit log not (the operator holds neither)
    expect(await outcomeOf(t.core.nas.list(await key(), {}))).toBe('ok');
    expect(await outcomeOf(t.core.users.list(await key(), {}))).toBe('forbidden');
    expect(await outcomeOf(t.core.auditEvents.list(await key(), {}))).toBe('forbidden');
    expect(await outcomeOf(t.core.nas.create(await key(), { name: 'n', host: 'h', type: 'local' }))).toBe('forbidden');
    // Promote the owner: the key reads the audit log at its next request.
    await t.core.users.update(await admin(), 'opal', { role: 'admin' });
    expect(await outcomeOf(t.core.auditEvents.list(await key(), {}))).toBe('ok');
    // A GET body sent back keeps the key as it is; switching to scopes drops the role.
    const shown = await t.core.apiKeys.show(await admin(), String(created.id));
    expect(await t.core.apiKeys.update(await admin(), String(created.id), shown)).toMatchObject({ role: 'auditor' });
    const switched = await t.core.apiKeys.update(await admin(), String(created.id), { role: null, api_key_scopes: [{ controller: 'jobs', action: 'index' }] });
    expect(switched).toMatchObject({ role: null, api_key_scopes: [{ controller: 'jobs', action: 'index' }] });
    expect(await outcomeOf(t.core.shares.list(await key(), all, {}))).toBe('forbidden');
  });
});
