import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import { calledFrom, type Principal } from '../scopes/principal.js';
import { passwordCredential } from '../security/credential.js';
import { describeChanges } from './audit-trail.js';
import type { AuditEvent } from '../domain/audit-event.js';

describe('describeChanges', () => {
  it('lists each sent field that changed as {from, to}, a secret as "changed", and leaves out what stayed', () => {
    const before = { name: 'a', comment: null, password: 'old' };
    const after = { name: 'b', comment: null, password: 'new' };
    expect(describeChanges(before, after, { name: 'b', comment: null, password: 'new' }, ['password'])).toEqual({
      name: { from: 'a', to: 'b' },
      password: 'changed',
    });
    expect(describeChanges(before, before, { name: 'a' })).toBeNull();
  });

  it('records a create from null, and never a value of a secret', () => {
    const changes = describeChanges(null, { community: 's3cret-community', manager: 'm' }, { community: 's3cret-community', manager: 'm' }, ['community']);
    expect(changes).toEqual({ community: 'changed', manager: { from: null, to: 'm' } });
    expect(JSON.stringify(changes)).not.toContain('s3cret');
  });
});

describeOnEachAdapter('audit trail', (open) => {
  let test: TestCore;
  let admin: Principal;
  const logged: AuditEvent[] = [];
  beforeEach(async () => {
    test = await open();
    admin = calledFrom(await test.asUser(testAdmin.username, testAdmin.password), { via: 'rest', clientAddress: '192.0.2.10', requestId: 'req-1' });
    logged.length = 0;
  });
  afterEach(() => test.close());

  const events = async (raw: Record<string, string[]> = {}) => (await test.core.auditEvents.list(admin, raw)).audit_events;

  it('records a NAS create, update and delete with who, from where and what changed, newest first', async () => {
    const nas = await test.core.nas.create(admin, { name: 'filer', host: 'filer.example', type: 'local' });
    await test.core.nas.update(admin, String(nas.id), { comment: 'rack 4', name: 'filer' });
    await test.core.nas.destroy(admin, String(nas.id));
    const [deleted, updated, created] = await events({ resource_type: ['nas'] });
    expect(created).toMatchObject({
      action: 'create',
      actor: { kind: 'user', name: 'admin' },
      via: 'rest',
      client_address: '192.0.2.10',
      request_id: 'req-1',
      resource: { type: 'nas', id: String(nas.id), name: 'filer' },
      outcome: 'success',
      count: 1,
    });
    // The name was sent unchanged: only the comment is a change.
    expect(updated).toMatchObject({ action: 'update', changes: { comment: { from: null, to: 'rack 4' } } });
    expect(updated!.changes).not.toHaveProperty('name');
    expect(deleted).toMatchObject({ action: 'delete', resource: { name: 'filer' }, changes: null });
  });

  it('records a share password as "changed": no stored event holds the password', async () => {
    const secret = 'Sh4re-Passw0rd-never-logged';
    const nas = await test.core.nas.create(admin, { name: 'filer', host: 'filer.example', type: 'local' });
    const share = await test.core.shares.create(admin, String(nas.id), { name: 'projects', path: 'projects', username: 'svc', password: secret });
    await test.core.shares.update(admin, { kind: 'all' }, String(share.id), { password: `${secret}-2` });
    const recorded = await events({ resource_type: ['nas_shares'] });
    expect(recorded.map((event) => event.changes?.['password'])).toEqual(['changed', 'changed']);
    expect(JSON.stringify(await events())).not.toContain(secret);
  });

  it('records a change made without an origin as the CLI’s, and refuses the log to a non-admin', async () => {
    await test.core.users.add({ username: 'operator', password: 'operator-password-1' });
    const [created] = await events({ action: ['create'], resource_type: ['users'] });
    expect(created).toMatchObject({ via: 'cli', actor: { kind: 'system', id: null, name: 'system' }, changes: { password: 'changed' } });
    const operator = await test.asUser('operator', 'operator-password-1');
    await expect(test.core.auditEvents.list(operator, {})).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('aggregates failed sign-ins per address, username and minute, and records the successful one', async () => {
    for (let i = 0; i < 3; i++) {
      await expect(
        test.core.access.authenticateRequest({ address: '203.0.113.5', credential: passwordCredential('admin', 'wrong-password') }),
      ).rejects.toMatchObject({ code: 'unauthenticated' });
    }
    await test.core.access.signIn({ address: '203.0.113.5', via: 'console', credential: passwordCredential(testAdmin.username, testAdmin.password) });
    const recorded = await events({ action: ['><login_failed|login'] });
    expect(recorded.map((event) => [event.action, event.via, event.count, event.outcome])).toEqual([
      ['login', 'console', 1, 'success'],
      ['login_failed', 'rest', 3, 'failure'],
    ]);
    expect(recorded[1]).toMatchObject({ actor: { name: 'admin' }, client_address: '203.0.113.5' });
    expect(JSON.stringify(recorded)).not.toContain('wrong-password');
  });

  it('records nothing for a change that was refused', async () => {
    const nas = await test.core.nas.create(admin, { name: 'filer', host: 'filer.example', type: 'local' });
    await test.core.shares.create(admin, String(nas.id), { name: 'projects', path: 'projects' });
    const before = (await events()).length;
    await expect(test.core.nas.destroy(admin, String(nas.id))).rejects.toMatchObject({ code: 'conflict' });
    await expect(test.core.nas.create(admin, { name: 'filer', host: 'other.example', type: 'local' })).rejects.toMatchObject({ code: 'conflict' });
    expect(await events()).toHaveLength(before);
  });
});
