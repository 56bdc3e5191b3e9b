import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import { calledFrom, type Principal } from '../scopes/principal.js';
import { passwordCredential } from '../security/credential.js';
import { describeChanges } from './audit-trail.js';
import type { AuditEvent } from '../domain/audit-event.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import { createMemoryRateLimiter } from '../adapters/memory/index.js';

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

  it('aggregates failed sign-ins per client and hour, and records the successful one', async () => {
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

/** A hasher without argon2's cost, so a suite can make a thousand password checks (a unit above the port). */
const plainHasher: PasswordHasher = {
  hash: async (password) => `plain:${password}`,
  verify: async (passwordHash, password) => passwordHash === `plain:${password}`,
};
const generous = () => ({
  perCredential: createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 }),
  perAddress: createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 }),
  authFailures: createMemoryRateLimiter({ limit: 10, windowSeconds: 60 }),
});

describeOnEachAdapter('failed sign-ins in the audit log', (open) => {
  let test: TestCore;
  let now: Date;
  const dayMs = 24 * 3600_000;
  beforeEach(async () => {
    now = new Date('2030-01-02T03:04:05.000Z');
    test = await open({ clock: () => now, hasher: plainHasher, limits: generous() });
  });
  afterEach(() => test.close());

  const fail = (address: string, username: string) =>
    expect(test.core.access.authenticateRequest({ address, credential: passwordCredential(username, 'wrong-password') })).rejects.toMatchObject({
      code: 'unauthenticated',
    });
  const log = async (admin: Principal, raw: Record<string, string[]> = {}) => test.core.auditEvents.list(admin, { limit: ['100'], ...raw });

  it('issue 40 item 5: 1,000 failed sign-ins with distinct user names from one client add one row, shown with its count, purged after their own retention', async () => {
    const admin = await test.asUser(testAdmin.username, testAdmin.password);
    await test.core.nas.create(admin, { name: 'filer', host: 'filer.example', type: 'local' });
    const rowsBefore = (await log(admin)).count;
    // One host of one /64 takes a new address now and then, and a new user name every time.
    for (let i = 0; i < 1000; i++) await fail(`2001:db8:0:5::${(i % 8) + 1}`, `guess-${i}`);

    const all = await log(admin);
    expect(all.count - rowsBefore).toBe(1);
    const [failed] = (await log(admin, { action: ['login_failed'] })).audit_events;
    expect(failed).toMatchObject({ action: 'login_failed', outcome: 'failure', count: 1000, client_address: '2001:db8:0:5::/64', actor: { name: 'guess-0' } });
    expect(failed!.changes).toEqual({ usernames: { from: null, to: Array.from({ length: 10 }, (_, i) => `guess-${i}`) } });
    expect(JSON.stringify(all)).not.toContain('wrong-password');

    // A new hour is a new row; the old one stays until its own retention (30 days), shorter than the log's.
    now = new Date(now.getTime() + 3600_000);
    await fail('2001:db8:0:5::1', 'guess-again');
    expect((await log(admin, { action: ['login_failed'] })).audit_events.map((event) => event.count)).toEqual([1, 1000]);
    now = new Date(now.getTime() + 29 * dayMs);
    await test.core.access.authenticateRequest({ address: '192.0.2.1', credential: passwordCredential(testAdmin.username, testAdmin.password) });
    await test.purgeExpired();
    expect((await log(admin, { action: ['login_failed'] })).count).toBe(2);
    now = new Date(now.getTime() + 2 * dayMs);
    await test.purgeExpired();
    expect((await log(admin, { action: ['login_failed'] })).count).toBe(0);
    expect((await log(admin, { resource_type: ['nas'] })).count).toBe(1);
  });

  it('issue 40 item 5: beyond the hour’s bound of clients, one overflow row without an address counts the rest', async () => {
    const admin = await test.asUser(testAdmin.username, testAdmin.password);
    const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    for (let i = 0; i < 1003; i++) await fail(address(i), `guess-${i}`);
    await fail(address(1002), 'guess-again');
    await fail(address(0), 'guess-again');
    expect((await log(admin, { action: ['login_failed'] })).count).toBe(1001);
    const [overflow] = (await log(admin, { action: ['login_failed'], actor: ['guess-1000'] })).audit_events;
    expect(overflow).toMatchObject({
      client_address: null,
      count: 4,
      changes: { usernames: { from: null, to: ['guess-1000', 'guess-1001', 'guess-1002', 'guess-again'] } },
    });
    expect((await log(admin, { action: ['login_failed'], actor: ['guess-0'] })).audit_events).toEqual([
      expect.objectContaining({ client_address: '10.0.0.0', count: 2 }),
    ]);
  });
});
