import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { DmsApiError, eq, gt, gte, inList, isNull, like, login, lt, lte, ne, notInList, notLike, type NasShare } from '../src/index.js';
import { adminPassword } from './support/dms-server.js';
import { useDms } from './support/fixture.js';

const t = useDms();

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('nas', () => {
  it('creates, gets by id and name, lists, pages, updates and deletes', async () => {
    const created = await t.dms.nas.create({ name: 'nas-crud', host: 'nas.example.com', type: 'smb_v3', comment: 'first' });
    expect(created).toMatchObject({ name: 'nas-crud', host: 'nas.example.com', type: 'smb_v3', comment: 'first', price: null });
    expect(await t.dms.nas.get(created.id)).toEqual(created);
    expect(await t.dms.nas.get('nas-crud')).toEqual(created);
    const second = await t.dms.nas.create({ name: 'nas-crud-2', host: 'nas2.example.com', type: 'nfs_v4' });

    const page = await t.dms.nas.list({ filter: { name: like('nas-crud%') }, sortBy: 'name:desc', limit: 1 });
    expect(page.count).toBe(2);
    expect(page.nas.map((nas) => nas.name)).toEqual(['nas-crud-2']);
    const all = await collect(t.dms.nas.listAll({ filter: { name: like('nas-crud%') }, limit: 1 }));
    expect(all.map((nas) => nas.id)).toEqual([created.id, second.id]);

    const updated = await t.dms.nas.update('nas-crud', { comment: null, price: '10.50' });
    expect(updated).toMatchObject({ id: created.id, comment: null, price: '10.50' });
    await t.dms.nas.delete(created.id);
    await t.dms.nas.delete('nas-crud-2');
    expect((await t.dms.nas.list({ filter: { name: like('nas-crud%') } })).count).toBe(0);
  });
});

describe('pools', () => {
  it('creates, gets, lists, updates, sets its shares and deletes', async () => {
    const nas = await t.dms.nas.create({ name: 'nas-pools', host: 'localhost', type: 'local' });
    const share = await t.dms.nasShares.create(nas.id, { name: 'pooled', path: 'pooled' });
    const pool = await t.dms.pools.create({ name: 'pool-a' });
    expect(pool).toMatchObject({ name: 'pool-a', type: 'primary', content: 'nas', nas_share_ids: [] });
    expect(await t.dms.pools.get('pool-a')).toEqual(pool);
    expect((await t.dms.pools.list({ filter: { name: eq('pool-a') } })).pools).toEqual([pool]);
    expect(await collect(t.dms.pools.listAll({ filter: { id: pool.id } }))).toEqual([pool]);

    expect(await t.dms.pools.update(pool.id, { comment: 'active' })).toMatchObject({ comment: 'active' });
    expect(await t.dms.pools.setShares('pool-a', [share.id])).toMatchObject({ nas_share_ids: [share.id] });
    expect((await t.dms.nasShares.get(share.id)).pool_id).toBe(pool.id);

    await t.dms.pools.setShares(pool.id, []);
    await t.dms.pools.delete('pool-a');
    await t.dms.nasShares.delete(share.id);
    await t.dms.nas.delete(nas.id);
  });
});

describe('nasShares', () => {
  it('creates 25 shares and pages through them with limit/offset and listAll', async () => {
    const nas = await t.dms.nas.create({ name: 'nas-paging', host: 'localhost', type: 'local' });
    for (let i = 0; i < 25; i++) await t.dms.nasShares.create('nas-paging', { name: `page-${String(i).padStart(2, '0')}`, path: `page/${i}` });

    const seen: string[] = [];
    for (let offset = 0; offset < 25; offset += 10) {
      const page = await t.dms.nasShares.list({ nasId: nas.id, sortBy: 'name', limit: 10, offset });
      expect(page.count).toBe(25);
      seen.push(...page.nas_shares.map((share) => share.name));
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect(seen[0]).toBe('page-00');

    // listAll: 4 requests of 7 (the last one short), every share once, in order.
    const before = t.responses.checked.length;
    const all = await collect(t.dms.nasShares.listAll({ nasId: 'nas-paging', sortBy: ['name:desc'], limit: 7 }));
    expect(all.map((share) => share.name)).toEqual([...seen].sort().reverse());
    expect(t.responses.checked.slice(before)).toEqual(Array(4).fill('GET /nas/{nas_id}/nas_shares 200'));
    // Everywhere, filtered on the NAS.
    expect(await collect(t.dms.nasShares.listAll({ filter: { nas_id: nas.id } }))).toHaveLength(25);
  });

  it('filters with every operator', async () => {
    const nas = await t.dms.nas.create({ name: 'nas-filters', host: 'localhost', type: 'local' });
    const make = (name: string, username?: string) => t.dms.nasShares.create(nas.id, { name, path: name, ...(username ? { username } : {}) });
    const [alpha, beta, gamma] = [await make('f-alpha', 'bob'), await make('f-beta'), await make('f-gamma', 'eve')] as [NasShare, NasShare, NasShare];
    const pool = await t.dms.pools.create({ name: 'pool-filters' });
    await t.dms.pools.setShares(pool.id, [gamma.id]);
    const names = async (filter: Parameters<typeof t.dms.nasShares.list>[0]) =>
      (await t.dms.nasShares.list({ ...filter, sortBy: 'id' })).nas_shares.map((share) => share.name);
    const mine = { nas_id: nas.id };

    expect(await names({ filter: { ...mine, name: like('f-%a') } })).toEqual(['f-alpha', 'f-beta', 'f-gamma']);
    expect(await names({ filter: { ...mine, name: notLike('%mm%') } })).toEqual(['f-alpha', 'f-beta']);
    expect(await names({ filter: { ...mine, id: gt(alpha.id) } })).toEqual(['f-beta', 'f-gamma']);
    expect(await names({ filter: { ...mine, id: gte(beta.id) } })).toEqual(['f-beta', 'f-gamma']);
    expect(await names({ filter: { ...mine, id: lt(beta.id) } })).toEqual(['f-alpha']);
    expect(await names({ filter: { ...mine, id: lte(beta.id) } })).toEqual(['f-alpha', 'f-beta']);
    expect(await names({ filter: { ...mine, id: inList([alpha.id, gamma.id]) } })).toEqual(['f-alpha', 'f-gamma']);
    expect(await names({ filter: { ...mine, id: notInList([alpha.id, gamma.id]) } })).toEqual(['f-beta']);
    // != keeps the nulls: a share without a username is not bob's.
    expect(await names({ filter: { ...mine, username: ne('bob') } })).toEqual(['f-beta', 'f-gamma']);
    expect(await names({ filter: { ...mine, username: 'eve' } })).toEqual(['f-gamma']);
    expect(await names({ filter: { ...mine, pool_id: isNull() } })).toEqual(['f-alpha', 'f-beta']);
    expect(await names({ filter: { ...mine, pool_id: isNull(false) } })).toEqual(['f-gamma']);
    expect(await names({ filter: { ...mine, username: eq(null) } })).toEqual(['f-beta']);
    // Two terms on one attribute must both hold.
    expect(await names({ filter: { ...mine, id: [gt(alpha.id), lt(gamma.id)] } })).toEqual(['f-beta']);
    // Scoped lists: under the NAS, and in the pool.
    expect(await names({ nasId: nas.id, filter: { pool_id: isNull() } })).toEqual(['f-alpha', 'f-beta']);
    expect(await names({ poolId: 'pool-filters', filter: { nas_id: nas.id } })).toEqual(['f-gamma']);
  });

  it('gets, updates and deletes a share under its NAS, in its pool and everywhere', async () => {
    const nas = await t.dms.nas.create({ name: 'nas-scopes', host: 'localhost', type: 'local' });
    const share = await t.dms.nasShares.create('nas-scopes', { name: 'scoped', path: 'scoped', options: 'ro', username: 'u', password: 'p' });
    expect(share).toMatchObject({ nas_id: nas.id, pool_id: null, name: 'scoped', options: 'ro', file_count: 0, file_size_sum: 0 });
    // The key has `*` / `*` but no literal get_password: no password (docs/decisions/041-scopes.md); the admin user sees it.
    expect(share).not.toHaveProperty('password');
    expect(await t.admin.nasShares.get(share.id)).toMatchObject({ password: 'p' });
    const pool = await t.dms.pools.create({ name: 'pool-scopes' });
    await t.dms.pools.setShares(pool.id, [share.id]);

    expect(await t.dms.nasShares.get(share.id)).toMatchObject({ id: share.id, pool_id: pool.id });
    expect(await t.dms.nasShares.get('scoped', { nasId: 'nas-scopes' })).toMatchObject({ id: share.id });
    expect(await t.dms.nasShares.get(share.id, { poolId: pool.id })).toMatchObject({ id: share.id });

    expect(await t.dms.nasShares.update(share.id, { options: null })).toMatchObject({ options: null });
    expect(await t.dms.nasShares.update('scoped', { username: 'v' }, { nasId: nas.id })).toMatchObject({ username: 'v' });
    expect(await t.dms.nasShares.update(share.id, { path: 'scoped2' }, { poolId: 'pool-scopes' })).toMatchObject({ path: 'scoped2' });

    await t.dms.nasShares.delete(share.id, { poolId: pool.id });
    await expect(t.dms.nasShares.get(share.id)).rejects.toMatchObject({ status: 404 });
    const again = await t.dms.nasShares.create(nas.id, { name: 'scoped', path: 'scoped' });
    await t.dms.nasShares.delete('scoped', { nasId: 'nas-scopes' });
    const third = await t.dms.nasShares.create(nas.id, { name: 'scoped', path: 'scoped' });
    await t.dms.nasShares.delete(third.id);
    expect(again.id).not.toBe(third.id);
  });

  it('creates a share whose name has a slash, addressed by name', async () => {
    mkdirSync(join(t.server.localRoot, 'slash'), { recursive: true });
    await t.dms.nas.create({ name: 'nas/with/slash', host: 'localhost', type: 'local' });
    const share = await t.dms.nasShares.create('nas/with/slash', { name: 'a/b', path: 'slash' });
    expect(await t.dms.nasShares.get('a/b', { nasId: 'nas/with/slash' })).toEqual(share);
  });
});

describe('snmp', () => {
  it('manages trap targets and sends a test trap', async () => {
    const trap = await t.dms.snmp.traps.create({ manager: 'nms.example.com:162', severity_low: 3 });
    expect(trap).toMatchObject({ activation: 1, version: 'v2c', manager: 'nms.example.com:162', community: 'public', severity_low: 3, severity_high: 5 });
    expect(await t.dms.snmp.traps.get(trap.snmp_trap_id)).toEqual(trap);
    expect((await t.dms.snmp.traps.list({ filter: { severity_low: 3 } })).traps).toEqual([trap]);
    expect(await collect(t.dms.snmp.traps.listAll())).toContainEqual(trap);
    expect(await t.dms.snmp.traps.update(Number(trap.snmp_trap_id), { activation: 0 })).toMatchObject({ activation: 0 });
    expect(await t.dms.snmp.traps.test(trap.snmp_trap_id)).toMatchObject({ snmp_trap_id: trap.snmp_trap_id });
    await t.dms.snmp.traps.delete(trap.snmp_trap_id);
    await expect(t.dms.snmp.traps.get(trap.snmp_trap_id)).rejects.toBeInstanceOf(DmsApiError);
  });

  it('reads and updates the SNMP server configuration', async () => {
    expect(await t.dms.snmp.serverConfiguration.get()).toMatchObject({ version: 'v2c' });
    expect(await t.dms.snmp.serverConfiguration.update({ location: 'rack 4', contact: 'ops@example.com' })).toMatchObject({
      location: 'rack 4',
      contact: 'ops@example.com',
    });
    expect(await t.dms.snmp.serverConfiguration.get()).toMatchObject({ location: 'rack 4' });
  });
});

describe('administration', () => {
  it('manages API keys and tells the current credential', async () => {
    const created = await t.dms.apiKeys.create({ name: 'reader', api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    expect(created.key).toEqual(expect.any(String));
    expect(created.masked_key.endsWith(created.key.slice(-4))).toBe(true);
    const { key, ...view } = created;
    expect(await t.dms.apiKeys.get(created.id)).toEqual(view);
    expect((await t.dms.apiKeys.list({ filter: { name: 'reader' } })).api_keys).toEqual([view]);
    expect(await collect(t.dms.apiKeys.listAll({ filter: { id: created.id } }))).toEqual([view]);
    expect(await t.dms.apiKeys.update(created.id, { name: 'reader-2' })).toMatchObject({ name: 'reader-2' });
    const reader = t.client({ auth: { apiKey: key } });
    expect(await reader.apiKeys.current()).toMatchObject({ kind: 'api_key', id: created.id, api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    await t.dms.apiKeys.delete(created.id);
    await expect(reader.nas.list()).rejects.toMatchObject({ status: 401, kind: 'unauthorized' });
  });

  it('manages users', async () => {
    const user = await t.dms.users.create({ username: 'alice', password: 'a-long-password' });
    expect(user).toMatchObject({ username: 'alice', admin: false, role: 'operator' });
    expect(await t.dms.users.get('alice')).toEqual(user);
    expect((await t.dms.users.list({ filter: { admin: false, username: 'alice' } })).users).toEqual([user]);
    expect(await collect(t.dms.users.listAll({ sortBy: 'username' }))).toContainEqual(user);
    expect(await t.dms.users.update(user.id, { role: 'viewer' })).toMatchObject({ role: 'viewer', admin: false });
    expect(await t.dms.users.update(user.id, { admin: true })).toMatchObject({ admin: true, role: 'admin' });
    const alice = t.client({ auth: { basic: { username: 'alice', password: 'a-long-password' } } });
    expect(await alice.apiKeys.current()).toMatchObject({ kind: 'user', name: 'alice' });
    await t.dms.users.delete('alice');
  });

  it('manages custom roles and lists the built-in ones (docs/api.md#roles)', async () => {
    const { roles } = await t.dms.roles.list();
    expect(roles.slice(0, 4).map((role) => [role.name, role.builtin])).toEqual([
      ['admin', true],
      ['operator', true],
      ['auditor', true],
      ['viewer', true],
    ]);
    const created = await t.dms.roles.create({ name: 'scanner', scopes: [{ controller: 'nas_shares', action: 'scan' }] });
    expect(created).toEqual({ name: 'scanner', builtin: false, description: null, scopes: [{ controller: 'nas_shares', action: 'scan' }] });
    expect(await t.dms.roles.update('scanner', { description: 'nightly' })).toMatchObject({ description: 'nightly' });
    expect(await t.dms.roles.get('scanner')).toMatchObject({ name: 'scanner', description: 'nightly' });
    await expect(t.dms.roles.update('viewer', { description: 'mine' })).rejects.toMatchObject({ status: 409 });
    const { key } = await t.dms.apiKeys.create({ name: 'scan-key', role: 'scanner' });
    expect(key).toMatch(/^dms_/);
    await expect(t.dms.roles.delete('scanner')).rejects.toMatchObject({ status: 409 });
  });

  it('manages CORS rules', async () => {
    const rule = await t.dms.corsRules.create({ origins: ['https://app.example.com'], path: '/api/v2/nas*', methods: ['GET'] });
    expect(await t.dms.corsRules.get(rule.id)).toEqual(rule);
    expect((await t.dms.corsRules.list()).cors_rules).toContainEqual(rule);
    expect(await collect(t.dms.corsRules.listAll({ filter: { path: like('/api/v2/nas%') } }))).toEqual([rule]);
    expect(await t.dms.corsRules.update(rule.id, { methods: ['GET', 'PUT'] })).toMatchObject({ methods: ['GET', 'PUT'] });
    await t.dms.corsRules.delete(rule.id);
  });

  it('manages silences', async () => {
    const silence = await t.dms.silences.create({ matchers: { source: 'scan_failed', nas_id: 4 }, ends_at: '2099-01-01T00:00:00Z', reason: 'controller swap' });
    expect(silence).toMatchObject({ active: true, until_cleared: false, matchers: { source: 'scan_failed', nas_id: 4 } });
    expect(await t.dms.silences.get(silence.id)).toEqual(silence);
    expect((await t.dms.silences.list({ filter: { until_cleared: false } })).silences.map((s) => s.id)).toContain(silence.id);
    expect(await t.dms.silences.update(silence.id, { reason: 'controller swap, ticket 12' })).toMatchObject({ reason: 'controller swap, ticket 12' });
    await t.dms.silences.delete(silence.id);
    await expect(t.dms.silences.get(silence.id)).rejects.toBeInstanceOf(DmsApiError);
  });

  it('switches JWT mode on in the settings and logs in with login() and auth.login', async () => {
    expect(await t.dms.settings.get()).toMatchObject({ jwt_enabled: false });
    expect(await t.dms.settings.update({ jwt_enabled: true, jwt_ttl_seconds: 600 })).toMatchObject({ jwt_enabled: true, jwt_ttl_seconds: 600 });
    const anonymous = t.client({});
    const token = await anonymous.auth.login('admin', adminPassword);
    expect(token.token.split('.')).toHaveLength(3);
    const viaToken = t.client({ auth: { jwt: token.token } });
    expect(await viaToken.apiKeys.current()).toMatchObject({ kind: 'user', name: 'admin' });

    const admin = await login(t.server.url, 'admin', adminPassword, { fetch: t.responses.fetch });
    expect(await admin.settings.get()).toMatchObject({ jwt_enabled: true });
    await t.dms.settings.update({ jwt_enabled: false });
    await expect(admin.settings.get()).rejects.toMatchObject({ status: 401 });
  });

  it('turns TOTP on with a code computed from the secret, logs in with a recovery code, lists and ends the session', async () => {
    await t.admin.users.create({ username: 'carol', password: 'carol-password-1' });
    await t.dms.settings.update({ jwt_enabled: true });
    const carol = t.client({ auth: { basic: { username: 'carol', password: 'carol-password-1' } } });
    const { secret, otpauth_uri } = await carol.totp.enroll();
    expect(otpauth_uri).toContain(secret);
    const { recovery_codes } = await carol.totp.confirm(await generate({ secret }));
    expect(recovery_codes).toHaveLength(10);
    const anonymous = t.client({});
    await expect(anonymous.auth.login('carol', 'carol-password-1')).rejects.toMatchObject({ status: 401, details: { totp_code: [{ error: 'blank' }] } });
    const { token } = await anonymous.auth.login('carol', 'carol-password-1', { recovery_code: recovery_codes[0]! });
    const viaToken = t.client({ auth: { jwt: token } });
    expect(await viaToken.totp.status()).toEqual({ enabled: true, pending: false, recovery_codes_left: 9 });
    const { sessions } = await viaToken.sessions.list();
    expect(sessions).toHaveLength(1);
    await t.admin.users.resetTotp('carol');
    await viaToken.sessions.delete(sessions[0]!.id);
    await expect(viaToken.sessions.list()).rejects.toMatchObject({ status: 401 });
    await t.dms.settings.update({ jwt_enabled: false });
  });
});

describe('ETag cache', () => {
  it('revalidates a GET with If-None-Match and serves the 304 from the cache', async () => {
    const { key } = await t.admin.apiKeys.create({ name: 'cached', api_key_scopes: [{ controller: '*', action: '*' }] });
    const cached = t.client({ auth: { apiKey: key }, cache: true });
    const nas = await cached.nas.create({ name: 'nas-etag', host: 'localhost', type: 'local' });
    const first = await cached.nas.get(nas.id);
    const before = t.responses.checked.length;
    expect(await cached.nas.get(nas.id)).toEqual(first);
    expect(t.responses.checked.slice(before)).toEqual(['GET /nas/{nas_id} 304']);
    await cached.nas.update(nas.id, { comment: 'changed' });
    expect(await cached.nas.get(nas.id)).toMatchObject({ comment: 'changed' });
    expect(t.responses.checked.at(-1)).toBe('GET /nas/{nas_id} 200');
  });
});
