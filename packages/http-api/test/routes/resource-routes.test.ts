import { defaultSnmpConfig } from '@dms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import {
  addNas,
  addPool,
  addShare,
  addTrap,
  expectModelError,
  joinPool,
  readJson,
  unique,
  type Nas,
  type NasShare,
  type Pool,
  type ShareCollectionBody,
  type SnmpConfig,
  type Trap,
} from '../../src/testing/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = async <T>(path: string): Promise<T> => {
  const res = await t.call('GET', path, { auth: t.basic });
  const text = await res.text();
  expect(res.status, `${path}: ${text}`).toBe(200);
  return JSON.parse(text) as T;
};

describe('NAS (/nas)', () => {
  it('creates a NAS (201) with null optional fields and shows it by id and by name', async () => {
    const name = unique('filer');
    const res = await t.call('POST', '/api/v2/nas', { auth: t.basic, body: { name, host: '10.0.0.5', type: 'smb_v3' } });
    expect(res.status).toBe(201);
    const nas = await readJson<Nas>(res);
    expect(nas).toEqual({ id: nas.id, name, host: '10.0.0.5', type: 'smb_v3', comment: null, price: null });
    expect(await get<Nas>(`/api/v2/nas/${nas.id}`)).toEqual(nas);
    expect(await get<Nas>(`/api/v2/nas/${name}`)).toEqual(nas);
  });

  it.each(['smb_v1', 'smb_v2_1', 'smb_v3', 'nfs_v3', 'nfs_v4', 'storenext_v5', 'local'])('accepts type %s', async (type) => {
    const res = await t.call('POST', '/api/v2/nas', { auth: t.basic, body: { name: unique('typed'), host: 'h.example', type, comment: 'c', price: '12.50' } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ type, comment: 'c', price: '12.50' });
  });

  it('lists NAS with count and page/per_page', async () => {
    const prefix = unique('listed');
    for (let i = 0; i < 5; i++) await addNas(t, { name: `${prefix}-${i}` });
    const all = await get<{ count: number; nas: Nas[] }>(`/api/v2/nas?name=~${prefix}-%`);
    expect(all.count).toBe(5);
    expect(all.nas.map((nas) => nas.name)).toEqual([0, 1, 2, 3, 4].map((i) => `${prefix}-${i}`));
    const page = await get<{ count: number; nas: Nas[] }>(`/api/v2/nas?name=~${prefix}-%&page=2&per_page=2&sort_by=name:desc`);
    expect(page.count).toBe(5);
    expect(page.nas.map((nas) => nas.name)).toEqual([`${prefix}-2`, `${prefix}-1`]);
  });

  it('updates partially: absent fields unchanged, null clears, read-only fields ignored, unknown fields 422', async () => {
    const nas = await addNas(t, { comment: 'first floor', price: '10' });
    const unknown = await t.call('PUT', `/api/v2/nas/${nas.id}`, { auth: t.basic, body: { host: 'new.example', id: 999, wheels: 4 } });
    await expectModelError(unknown, 422, 'wheels', 'unknown');
    expect(await get<Nas>(`/api/v2/nas/${nas.id}`)).toEqual(nas);
    const res = await t.call('PUT', `/api/v2/nas/${nas.id}`, { auth: t.basic, body: { host: 'new.example', id: 999 } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...nas, host: 'new.example' });
    const cleared = await t.call('PUT', `/api/v2/nas/${nas.name}`, { auth: t.basic, body: { comment: null, price: null } });
    expect(await cleared.json()).toEqual({ ...nas, host: 'new.example', comment: null, price: null });
    const before = await get<Nas>(`/api/v2/nas/${nas.id}`);
    const back = await t.call('PUT', `/api/v2/nas/${nas.id}`, { auth: t.basic, body: before });
    expect(back.status).toBe(200);
    expect(await back.json()).toEqual(before);
  });

  it('answers 409 taken for a duplicate name on create and on rename', async () => {
    const a = await addNas(t);
    const b = await addNas(t);
    await expectModelError(
      await t.call('POST', '/api/v2/nas', { auth: t.basic, body: { name: a.name, host: 'x.example', type: 'local' } }),
      409,
      'name',
      'taken',
    );
    await expectModelError(await t.call('PUT', `/api/v2/nas/${b.id}`, { auth: t.basic, body: { name: a.name } }), 409, 'name', 'taken');
    expect((await get<Nas>(`/api/v2/nas/${b.id}`)).name).toBe(b.name);
  });

  it.each([
    ['name blank', { name: '', host: 'h', type: 'local' }, 'name', 'blank'],
    ['name missing', { host: 'h', type: 'local' }, 'name', 'blank'],
    ['name too long', { name: 'n'.repeat(256), host: 'h', type: 'local' }, 'name', 'too_long'],
    ['host invalid', { name: 'n', host: 'not a host', type: 'local' }, 'host', 'invalid'],
    ['type unknown', { name: 'n', host: 'h', type: 'ftp' }, 'type', 'invalid'],
    ['price not decimal', { name: 'n', host: 'h', type: 'local', price: 'cheap' }, 'price', 'invalid'],
  ])('answers 422 on create for %s', async (_label, body, attribute, type) => {
    await expectModelError(await t.call('POST', '/api/v2/nas', { auth: t.basic, body }), 422, attribute, type);
  });

  it('deletes a NAS without shares (204), then it is 404', async () => {
    const nas = await addNas(t);
    const res = await t.call('DELETE', `/api/v2/nas/${nas.name}`, { auth: t.basic });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await expectModelError(await t.call('GET', `/api/v2/nas/${nas.id}`, { auth: t.basic }), 404, 'nas_id', 'not_found');
    await expectModelError(await t.call('DELETE', `/api/v2/nas/${nas.id}`, { auth: t.basic }), 404, 'nas_id', 'not_found');
  });

  it('answers 409 when deleting a NAS that still has shares, and deletes it once they are gone', async () => {
    const nas = await addNas(t);
    const share = await addShare(t, nas);
    const body = await expectModelError(await t.call('DELETE', `/api/v2/nas/${nas.id}`, { auth: t.basic }), 409, 'nas_shares', 'frozen');
    expect(body.details['nas_shares']![0]!.count).toBe(1);
    expect((await t.call('GET', `/api/v2/nas/${nas.id}`, { auth: t.basic })).status).toBe(200);
    expect((await t.call('DELETE', `/api/v2/nas_shares/${share.id}`, { auth: t.basic })).status).toBe(204);
    expect((await t.call('DELETE', `/api/v2/nas/${nas.id}`, { auth: t.basic })).status).toBe(204);
  });

  it('answers 404 for an unknown NAS on show, update and delete', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await t.call(method, '/api/v2/nas/no-such-nas', { auth: t.basic, ...(method === 'PUT' ? { body: { host: 'h' } } : {}) });
      await expectModelError(res, 404, 'nas_id', 'not_found');
    }
  });
});

describe('pools (/pools) and membership', () => {
  it('creates a pool (201) with defaults and shows it', async () => {
    const name = unique('pool');
    const res = await t.call('POST', '/api/v2/pools', { auth: t.basic, body: { name } });
    expect(res.status).toBe(201);
    const pool = await readJson<Pool>(res);
    expect(pool).toEqual({ id: pool.id, name, comment: null, type: 'primary', content: 'nas', primary_id: null, nas_share_ids: [] });
    expect(await get<Pool>(`/api/v2/pools/${name}`)).toEqual(pool);
    const archive = await t.call('POST', '/api/v2/pools', {
      auth: t.basic,
      body: { name: unique('archive'), type: 'offline_archive', content: 'tape', comment: 'vault', primary_id: 3 },
    });
    expect(await archive.json()).toMatchObject({ type: 'offline_archive', content: 'tape', comment: 'vault', primary_id: null });
  });

  it('answers 409 for a duplicate pool name and 422 for bad fields', async () => {
    const pool = await addPool(t);
    await expectModelError(await t.call('POST', '/api/v2/pools', { auth: t.basic, body: { name: pool.name } }), 409, 'name', 'taken');
    await expectModelError(await t.call('POST', '/api/v2/pools', { auth: t.basic, body: { name: '' } }), 422, 'name', 'blank');
    await expectModelError(await t.call('POST', '/api/v2/pools', { auth: t.basic, body: { name: 'p', type: 'warm' } }), 422, 'type', 'invalid');
    await expectModelError(await t.call('POST', '/api/v2/pools', { auth: t.basic, body: { name: 'p', content: 'disk' } }), 422, 'content', 'invalid');
    const zero = await expectModelError(
      await t.call('PUT', `/api/v2/pools/${pool.id}`, { auth: t.basic, body: { nas_share_ids: [0] } }),
      422,
      'nas_share_ids.0',
      'greater_than_or_equal_to',
    );
    expect(zero.details['nas_share_ids.0']).toEqual([{ error: 'greater_than_or_equal_to', count: 1 }]);
    await expectModelError(await t.call('PUT', `/api/v2/pools/${pool.id}`, { auth: t.basic, body: { nas_share_ids: 'all' } }), 422, 'nas_share_ids', 'invalid');
  });

  it('replaces the membership with nas_share_ids and shows pool_id on the shares', async () => {
    const nas = await addNas(t);
    const [a, b, c] = [await addShare(t, nas), await addShare(t, nas), await addShare(t, nas)];
    const pool = await addPool(t);
    const first = await t.call('PUT', `/api/v2/pools/${pool.id}`, { auth: t.basic, body: { nas_share_ids: [a!.id, b!.id] } });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ...pool, nas_share_ids: [a!.id, b!.id] });
    expect((await get<NasShare>(`/api/v2/nas_shares/${a!.id}`)).pool_id).toBe(pool.id);

    const second = await t.call('PUT', `/api/v2/pools/${pool.name}`, { auth: t.basic, body: { nas_share_ids: [c!.id, b!.id] } });
    expect((await readJson<Pool>(second)).nas_share_ids).toEqual([b!.id, c!.id]);
    expect((await get<NasShare>(`/api/v2/nas_shares/${a!.id}`)).pool_id).toBeNull();
    expect((await get<NasShare>(`/api/v2/nas_shares/${c!.id}`)).pool_id).toBe(pool.id);

    const members = await get<ShareCollectionBody>(`/api/v2/pools/${pool.id}/nas_shares`);
    expect(members.count).toBe(2);
    expect(members.nas_shares.map((share) => share.id)).toEqual([b!.id, c!.id]);
    expect(members.nas_shares.every((share) => share.pool_id === pool.id)).toBe(true);

    // absent nas_share_ids leaves the membership alone
    const renamed = await t.call('PUT', `/api/v2/pools/${pool.id}`, { auth: t.basic, body: { comment: 'renamed only' } });
    expect((await readJson<Pool>(renamed)).nas_share_ids).toEqual([b!.id, c!.id]);

    const emptied = await t.call('PUT', `/api/v2/pools/${pool.id}`, { auth: t.basic, body: { nas_share_ids: [] } });
    expect((await readJson<Pool>(emptied)).nas_share_ids).toEqual([]);
    expect(await get<ShareCollectionBody>(`/api/v2/pools/${pool.id}/nas_shares`)).toEqual({ count: 0, nas_shares: [] });
  });

  it('answers 422 not_found for unknown share ids and changes nothing', async () => {
    const nas = await addNas(t);
    const share = await addShare(t, nas);
    const pool = await addPool(t);
    await joinPool(t, pool, [share.id]);
    const res = await t.call('PUT', `/api/v2/pools/${pool.id}`, {
      auth: t.basic,
      body: { name: unique('renamed'), comment: 'x', nas_share_ids: [share.id, 999998, 999999] },
    });
    const body = await expectModelError(res, 422, 'nas_share_ids', 'not_found');
    expect(body.details['nas_share_ids']!.map((e) => e.value)).toEqual([999998, 999999]);
    expect(await get<Pool>(`/api/v2/pools/${pool.id}`)).toEqual({ ...pool, nas_share_ids: [share.id] });
  });

  it('answers 409 taken for a share already in another pool and changes nothing', async () => {
    const nas = await addNas(t);
    const share = await addShare(t, nas);
    const free = await addShare(t, nas);
    const owner = await addPool(t);
    const other = await addPool(t);
    await joinPool(t, owner, [share.id]);
    const res = await t.call('PUT', `/api/v2/pools/${other.id}`, { auth: t.basic, body: { comment: 'changed', nas_share_ids: [free.id, share.id] } });
    const body = await expectModelError(res, 409, 'nas_share_ids', 'taken');
    expect(body.details['nas_share_ids']![0]!.value).toBe(share.id);
    expect(await get<Pool>(`/api/v2/pools/${other.id}`)).toEqual(other);
    expect((await get<NasShare>(`/api/v2/nas_shares/${free.id}`)).pool_id).toBeNull();
    expect((await get<NasShare>(`/api/v2/nas_shares/${share.id}`)).pool_id).toBe(owner.id);
  });

  it('answers 409 for a rename to a taken name with nas_share_ids, and changes nothing', async () => {
    const nas = await addNas(t);
    const share = await addShare(t, nas);
    const taken = await addPool(t);
    const pool = await addPool(t);
    await expectModelError(
      await t.call('PUT', `/api/v2/pools/${pool.id}`, { auth: t.basic, body: { name: taken.name, nas_share_ids: [share.id] } }),
      409,
      'name',
      'taken',
    );
    expect(await get<Pool>(`/api/v2/pools/${pool.id}`)).toEqual(pool);
    expect((await get<NasShare>(`/api/v2/nas_shares/${share.id}`)).pool_id).toBeNull();
  });

  it('answers 422 when shares are put in a pool whose content is not nas', async () => {
    const nas = await addNas(t);
    const share = await addShare(t, nas);
    for (const content of ['tape', 'cloud']) {
      const pool = await addPool(t, { content: content as 'tape' });
      await expectModelError(
        await t.call('PUT', `/api/v2/pools/${pool.id}`, { auth: t.basic, body: { nas_share_ids: [share.id] } }),
        422,
        'nas_share_ids',
        'invalid',
      );
    }
    // ... and when the same request turns a nas pool into a tape pool
    const nasPool = await addPool(t);
    await expectModelError(
      await t.call('PUT', `/api/v2/pools/${nasPool.id}`, { auth: t.basic, body: { content: 'tape', nas_share_ids: [share.id] } }),
      422,
      'nas_share_ids',
      'invalid',
    );
    expect((await get<NasShare>(`/api/v2/nas_shares/${share.id}`)).pool_id).toBeNull();
  });

  it('answers 422 frozen when changing the content of a pool that holds shares', async () => {
    const nas = await addNas(t);
    const share = await addShare(t, nas);
    const pool = await addPool(t);
    await joinPool(t, pool, [share.id]);
    const body = await expectModelError(
      await t.call('PUT', `/api/v2/pools/${pool.id}`, { auth: t.basic, body: { content: 'tape' } }),
      422,
      'content',
      'frozen',
    );
    expect(body.details['content']![0]!.count).toBe(1);
    expect((await get<Pool>(`/api/v2/pools/${pool.id}`)).content).toBe('nas');
  });

  it('accepts a GET body sent back unchanged', async () => {
    const nas = await addNas(t);
    const share = await addShare(t, nas);
    const pool = await addPool(t, { comment: 'keep' });
    await joinPool(t, pool, [share.id]);
    const before = await get<Pool>(`/api/v2/pools/${pool.id}`);
    const res = await t.call('PUT', `/api/v2/pools/${pool.id}`, { auth: t.basic, body: before });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(before);
  });

  it('deletes a pool (204); its shares stay, with pool_id null', async () => {
    const nas = await addNas(t);
    const share = await addShare(t, nas);
    const pool = await addPool(t);
    await joinPool(t, pool, [share.id]);
    const res = await t.call('DELETE', `/api/v2/pools/${pool.id}`, { auth: t.basic });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await expectModelError(await t.call('GET', `/api/v2/pools/${pool.id}`, { auth: t.basic }), 404, 'pool_id', 'not_found');
    await expectModelError(await t.call('GET', `/api/v2/pools/${pool.id}/nas_shares`, { auth: t.basic }), 404, 'pool_id', 'not_found');
    expect((await get<NasShare>(`/api/v2/nas_shares/${share.id}`)).pool_id).toBeNull();
  });

  it('drops a deleted share from its pool', async () => {
    const nas = await addNas(t);
    const [a, b] = [await addShare(t, nas), await addShare(t, nas)];
    const pool = await addPool(t);
    await joinPool(t, pool, [a!.id, b!.id]);
    expect((await t.call('DELETE', `/api/v2/pools/${pool.id}/nas_shares/${a!.id}`, { auth: t.basic })).status).toBe(204);
    expect((await get<Pool>(`/api/v2/pools/${pool.id}`)).nas_share_ids).toEqual([b!.id]);
  });

  it('lists pools with page/per_page and filters', async () => {
    const prefix = unique('plist');
    await addPool(t, { name: `${prefix}-a`, content: 'tape' });
    await addPool(t, { name: `${prefix}-b` });
    await addPool(t, { name: `${prefix}-c`, content: 'tape' });
    const tapes = await get<{ count: number; pools: Pool[] }>(`/api/v2/pools?name=~${prefix}%&content=tape&per_page=1`);
    expect(tapes.count).toBe(2);
    expect(tapes.pools.map((pool) => pool.name)).toEqual([`${prefix}-a`]);
    const second = await get<{ count: number; pools: Pool[] }>(`/api/v2/pools?name=~${prefix}%&content=tape&per_page=1&page=2`);
    expect(second.pools.map((pool) => pool.name)).toEqual([`${prefix}-c`]);
  });
});

describe('SNMP traps (/snmp/traps)', () => {
  it('creates a trap with defaults (201), snmp_trap_id a decimal string', async () => {
    const res = await t.call('POST', '/api/v2/snmp/traps', { auth: t.basic, body: { manager: 'nms.example' } });
    expect(res.status).toBe(201);
    const trap = await readJson<Trap>(res);
    expect(trap).toEqual({
      snmp_trap_id: trap.snmp_trap_id,
      activation: 1,
      version: 'v2c',
      manager: 'nms.example',
      community: 'public',
      severity_low: 1,
      severity_high: 5,
      notify_type: 'trap',
      security_name: null,
      security_level: null,
      auth_protocol: null,
      auth_passphrase: null,
      priv_protocol: null,
      priv_passphrase: null,
    });
    expect(trap.snmp_trap_id).toMatch(/^[1-9]\d*$/);
    expect(await get<Trap>(`/api/v2/snmp/traps/${trap.snmp_trap_id}`)).toEqual(trap);
  });

  it.each(['192.0.2.1', '192.0.2.1:1162', 'nms.example:162', '[2001:db8::1]', '[2001:db8::1]:10162', 'localhost'])('accepts manager %s', async (manager) => {
    const res = await t.call('POST', '/api/v2/snmp/traps', {
      auth: t.basic,
      body: { manager, version: 'v1', activation: 0, community: 'secret community', severity_low: 3, severity_high: 3 },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ manager, version: 'v1', activation: 0, community: 'secret community', severity_low: 3, severity_high: 3 });
  });

  it.each<[string, Record<string, unknown>, string, string, number | undefined]>([
    ['manager missing', {}, 'manager', 'blank', undefined],
    ['manager not a host', { manager: 'not a host!' }, 'manager', 'invalid', undefined],
    ['manager port out of range', { manager: 'h.example:70000' }, 'manager', 'invalid', undefined],
    ['manager too long', { manager: `${'a'.repeat(262)}` }, 'manager', 'too_long', 261],
    ['version v4', { manager: 'h', version: 'v4' }, 'version', 'invalid', undefined],
    ['version v3 without a user', { manager: 'h', version: 'v3' }, 'security_name', 'blank', undefined],
    ['an inform with v1', { manager: 'h', version: 'v1', notify_type: 'inform' }, 'notify_type', 'invalid', undefined],
    ['a passphrase under 8 characters', { manager: 'h', version: 'v3', security_name: 'u', auth_passphrase: 'short' }, 'auth_passphrase', 'too_short', 8],
    ['activation 2', { manager: 'h', activation: 2 }, 'activation', 'invalid', undefined],
    ['activation a string', { manager: 'h', activation: '1' }, 'activation', 'invalid', undefined],
    ['community blank', { manager: 'h', community: '' }, 'community', 'blank', undefined],
    ['community too long', { manager: 'h', community: 'c'.repeat(256) }, 'community', 'too_long', 255],
    ['community not ASCII', { manager: 'h', community: 'gemeinschäft' }, 'community', 'invalid', undefined],
    ['severity_low 0', { manager: 'h', severity_low: 0 }, 'severity_low', 'greater_than_or_equal_to', 1],
    ['severity_high 6', { manager: 'h', severity_high: 6 }, 'severity_high', 'less_than_or_equal_to', 5],
    ['severity_low 2.5', { manager: 'h', severity_low: 2.5 }, 'severity_low', 'invalid', undefined],
    ['severity_low above severity_high', { manager: 'h', severity_low: 4, severity_high: 2 }, 'severity_low', 'less_than_or_equal_to', 2],
  ])('answers 422 on create for %s', async (_label, body, attribute, type, count) => {
    const error = await expectModelError(await t.call('POST', '/api/v2/snmp/traps', { auth: t.basic, body }), 422, attribute, type);
    if (count !== undefined) expect(error.details[attribute]).toContainEqual({ error: type, count });
  });

  it('updates partially and checks the severity band against the stored values', async () => {
    const trap = await addTrap(t, { severity_low: 2, severity_high: 3 });
    const unknown = await t.call('PUT', `/api/v2/snmp/traps/${trap.snmp_trap_id}`, {
      auth: t.basic,
      body: { community: 'ops', snmp_trap_id: '777', extra: true },
    });
    await expectModelError(unknown, 422, 'extra', 'unknown');
    expect(await get<Trap>(`/api/v2/snmp/traps/${trap.snmp_trap_id}`)).toEqual(trap);
    const res = await t.call('PUT', `/api/v2/snmp/traps/${trap.snmp_trap_id}`, { auth: t.basic, body: { community: 'ops', snmp_trap_id: '777' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...trap, community: 'ops' });
    const band = await expectModelError(
      await t.call('PUT', `/api/v2/snmp/traps/${trap.snmp_trap_id}`, { auth: t.basic, body: { severity_low: 4 } }),
      422,
      'severity_low',
      'less_than_or_equal_to',
    );
    expect(band.details['severity_low']).toContainEqual({ error: 'less_than_or_equal_to', count: 3 });
    await expectModelError(
      await t.call('PUT', `/api/v2/snmp/traps/${trap.snmp_trap_id}`, { auth: t.basic, body: { severity_high: 1 } }),
      422,
      'severity_low',
      'less_than_or_equal_to',
    );
    await expectModelError(await t.call('PUT', `/api/v2/snmp/traps/${trap.snmp_trap_id}`, { auth: t.basic, body: { manager: null } }), 422, 'manager', 'blank');
    const moved = await t.call('PUT', `/api/v2/snmp/traps/${trap.snmp_trap_id}`, { auth: t.basic, body: { severity_low: 4, severity_high: 5 } });
    expect(await moved.json()).toEqual({ ...trap, community: 'ops', severity_low: 4, severity_high: 5 });
    const before = await get<Trap>(`/api/v2/snmp/traps/${trap.snmp_trap_id}`);
    const back = await t.call('PUT', `/api/v2/snmp/traps/${trap.snmp_trap_id}`, { auth: t.basic, body: before });
    expect(back.status).toBe(200);
    expect(await back.json()).toEqual(before);
  });

  it('deletes a trap (204), then it is 404', async () => {
    const trap = await addTrap(t);
    const res = await t.call('DELETE', `/api/v2/snmp/traps/${trap.snmp_trap_id}`, { auth: t.basic });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await expectModelError(await t.call('GET', `/api/v2/snmp/traps/${trap.snmp_trap_id}`, { auth: t.basic }), 404, 'snmp_trap_id', 'not_found');
  });

  it.each(['abc', '0', '-1', '1.5', '1e3', '999999', '01'])('answers 404 not_found for snmp_trap_id %s on show, update and delete', async (ref) => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await t.call(method, `/api/v2/snmp/traps/${ref}`, { auth: t.basic, ...(method === 'PUT' ? { body: { community: 'x' } } : {}) });
      const body = await expectModelError(res, 404, 'snmp_trap_id', 'not_found');
      expect(body.details['snmp_trap_id']![0]!.value).toBe(ref);
    }
  });

  it('lists traps with count, page/per_page or limit/offset, sort_by and filters', async () => {
    const app = await createTestApp();
    try {
      for (const [low, high] of [
        [1, 5],
        [3, 4],
        [2, 2],
        [5, 5],
      ] as const)
        await addTrap(app, { severity_low: low, severity_high: high });
      const call = async (query: string) => {
        const res = await app.call('GET', `/api/v2/snmp/traps?${query}`, { auth: app.basic });
        expect(res.status, query).toBe(200);
        const body = await readJson<{ count: number; traps: Trap[] }>(res);
        return { count: body.count, ids: body.traps.map((trap) => trap.snmp_trap_id) };
      };
      expect(await call('')).toEqual({ count: 4, ids: ['1', '2', '3', '4'] });
      expect(await call('page=2&per_page=3')).toEqual({ count: 4, ids: ['4'] });
      expect(await call('sort_by=severity_low:desc')).toEqual({ count: 4, ids: ['4', '2', '3', '1'] });
      expect(await call('sort_by=severity_high|snmp_trap_id:desc')).toEqual({ count: 4, ids: ['3', '2', '4', '1'] });
      expect(await call('snmp_trap_id=>2')).toEqual({ count: 2, ids: ['3', '4'] });
      expect(await call('severity_low=><2|5&per_page=1')).toEqual({ count: 2, ids: ['3'] });
      // Every list takes limit/offset too (docs/decisions/014-one-list-contract.md), but not mixed with page/per_page.
      expect(await call('limit=2&offset=1')).toEqual({ count: 4, ids: ['2', '3'] });
      await expectModelError(await app.call('GET', '/api/v2/snmp/traps?limit=2&page=1', { auth: app.basic }), 400, 'page', 'invalid');
      await expectModelError(await app.call('GET', '/api/v2/snmp/traps?per_page=101', { auth: app.basic }), 400, 'per_page', 'invalid');
      await expectModelError(await app.call('GET', '/api/v2/snmp/traps?sort_by=colour', { auth: app.basic }), 400, 'sort_by', 'invalid');
    } finally {
      await app.close();
    }
  });
});

describe('SNMP server configuration (/snmp/server_configuration)', () => {
  it('shows the defaults, updates partially, and keeps what was not sent', async () => {
    const app = await createTestApp();
    try {
      const path = '/api/v2/snmp/server_configuration';
      const shown = await app.call('GET', path, { auth: app.basic });
      expect(shown.status).toBe(200);
      expect(await shown.json()).toEqual({ ...defaultSnmpConfig, version: 'v2c', community: 'public', location: '', contact: '' });
      const unknown = await app.call('PUT', path, { auth: app.basic, body: { location: 'rack 4, row B', contact: 'ops@example.com', colour: 'blue' } });
      await expectModelError(unknown, 422, 'colour', 'unknown');
      expect(await (await app.call('GET', path, { auth: app.basic })).json()).toEqual({
        ...defaultSnmpConfig,
        version: 'v2c',
        community: 'public',
        location: '',
        contact: '',
      });
      const res = await app.call('PUT', path, { auth: app.basic, body: { location: 'rack 4, row B', contact: 'ops@example.com' } });
      expect(res.status).toBe(200);
      const expected: SnmpConfig = { ...defaultSnmpConfig, version: 'v2c', community: 'public', location: 'rack 4, row B', contact: 'ops@example.com' };
      expect(await res.json()).toEqual(expected);
      const second = await app.call('PUT', path, { auth: app.basic, body: { version: 'v1', community: 'private' } });
      expect(await second.json()).toEqual({ ...expected, version: 'v1', community: 'private' });
      const before = await (await app.call('GET', path, { auth: app.basic })).json();
      const back = await app.call('PUT', path, { auth: app.basic, body: before });
      expect(back.status).toBe(200);
      expect(await back.json()).toEqual(before);
      const cleared = await app.call('PUT', path, { auth: app.basic, body: { location: '' } });
      expect(await cleared.json()).toMatchObject({ location: '', contact: 'ops@example.com' });
    } finally {
      await app.close();
    }
  });

  it.each<[string, Record<string, unknown>, string, string, number | undefined]>([
    ['version v3', { version: 'v3' }, 'version', 'invalid', undefined],
    ['community blank', { community: '' }, 'community', 'blank', undefined],
    ['community too long', { community: 'c'.repeat(256) }, 'community', 'too_long', 255],
    ['location too long', { location: 'l'.repeat(256) }, 'location', 'too_long', 255],
    ['contact with a control character', { contact: 'ops\n@example.com' }, 'contact', 'invalid', undefined],
    ['location of the wrong type', { location: 5 }, 'location', 'invalid', undefined],
  ])('answers 422 for %s and changes nothing', async (_label, body, attribute, type, count) => {
    const before = await get<SnmpConfig>('/api/v2/snmp/server_configuration');
    const error = await expectModelError(await t.call('PUT', '/api/v2/snmp/server_configuration', { auth: t.basic, body }), 422, attribute, type);
    if (count !== undefined) expect(error.details[attribute]).toContainEqual({ error: type, count });
    expect(await get<SnmpConfig>('/api/v2/snmp/server_configuration')).toEqual(before);
  });
});
