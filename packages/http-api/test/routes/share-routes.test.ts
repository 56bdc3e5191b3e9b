import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import {
  addNas,
  addPool,
  addShare,
  expectModelError,
  joinPool,
  readJson,
  unique,
  type Nas,
  type NasShare,
  type Pool,
  type ShareCollectionBody,
} from '../../src/testing/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const shareKeys = [
  'id',
  'nas_id',
  'pool_id',
  'name',
  'path',
  'options',
  'username',
  'password',
  'file_count',
  'file_size_sum',
  'health',
  'last_tested_at',
  'last_test_status',
  'last_scanned_at',
  'capacity_bytes',
  'free_bytes',
  'capacity_checked_at',
  'capacity_forecast',
  'used_percent',
  'days_until_full',
  'capacity_warning_percent',
  'capacity_critical_percent',
];

/** A NAS with one share that is a member of a pool, for the three route families. */
async function world(): Promise<{ nas: Nas; pool: Pool; share: NasShare; families: string[] }> {
  const nas = await addNas(t);
  const pool = await addPool(t);
  const share = await addShare(t, nas, { password: 'pw-1' });
  await joinPool(t, pool, [share.id]);
  return {
    nas,
    pool,
    share: { ...share, pool_id: pool.id },
    families: [`/api/v2/nas/${nas.id}/nas_shares`, '/api/v2/nas_shares', `/api/v2/pools/${pool.id}/nas_shares`],
  };
}

describe('POST /nas/{nas_id}/nas_shares', () => {
  it('creates a share under a NAS addressed by name and shows it under every family', async () => {
    const nas = await addNas(t);
    const created = await t.call('POST', `/api/v2/nas/${nas.name}/nas_shares`, {
      auth: t.basic,
      body: { name: 'projects', path: 'data/projects', options: 'ro,vers=3', username: 'svc', password: 'pa55' },
    });
    expect(created.status).toBe(201);
    const share = await readJson<NasShare>(created);
    expect(Object.keys(share).sort()).toEqual([...shareKeys].sort());
    expect(share).toEqual({
      id: share.id,
      nas_id: nas.id,
      pool_id: null,
      name: 'projects',
      path: 'data/projects',
      options: 'ro,vers=3',
      username: 'svc',
      password: 'pa55',
      file_count: 0,
      file_size_sum: 0,
      // Never tested nor scanned: clients say "not scanned", not "0 files".
      health: 'unknown',
      last_tested_at: null,
      last_test_status: null,
      last_scanned_at: null,
      // Nor is its size known yet.
      capacity_bytes: null,
      free_bytes: null,
      used_percent: null,
      capacity_checked_at: null,
      days_until_full: null,
      capacity_forecast: null,
      // The source's share_nearly_full thresholds apply.
      capacity_warning_percent: null,
      capacity_critical_percent: null,
    });
    expect(Number.isInteger(share.id)).toBe(true);
    for (const path of [`/api/v2/nas_shares/${share.id}`, `/api/v2/nas/${nas.id}/nas_shares/projects`, `/api/v2/nas/${nas.name}/nas_shares/${share.id}`]) {
      const shown = await t.call('GET', path, { auth: t.basic });
      expect(shown.status, path).toBe(200);
      expect(await shown.json()).toEqual(share);
    }
  });

  it('gives optional fields null when they are absent, ignores read-only fields and refuses unknown ones', async () => {
    const nas = await addNas(t);
    const unknown = await t.call('POST', `/api/v2/nas/${nas.id}/nas_shares`, {
      auth: t.basic,
      body: { name: 'minimal', path: 'x', id: 999, nas_id: 12345, pool_id: 7, file_count: 5, file_size_sum: 6, colour: 'red' },
    });
    await expectModelError(unknown, 422, 'colour', 'unknown');
    expect((await readJson<ShareCollectionBody>(await t.call('GET', `/api/v2/nas/${nas.id}/nas_shares`, { auth: t.basic }))).count).toBe(0);
    const res = await t.call('POST', `/api/v2/nas/${nas.id}/nas_shares`, {
      auth: t.basic,
      body: { name: 'minimal', path: 'x', id: 999, nas_id: 12345, pool_id: 7, file_count: 5, file_size_sum: 6 },
    });
    expect(res.status).toBe(201);
    const share = await readJson<NasShare & { colour?: unknown }>(res);
    expect(share).toMatchObject({ nas_id: nas.id, pool_id: null, options: null, username: null, password: null, file_count: 0, file_size_sum: 0 });
    expect(share.id).not.toBe(999);
    expect(share.colour).toBeUndefined();
  });

  it('answers 404 not_found for an unknown NAS, by id or by name', async () => {
    for (const ref of ['999999', 'no-such-nas']) {
      const res = await t.call('POST', `/api/v2/nas/${ref}/nas_shares`, { auth: t.basic, body: { name: 'x', path: 'x' } });
      const body = await expectModelError(res, 404, 'nas_id', 'not_found');
      expect(body.details['nas_id']![0]!.value).toBe(ref);
    }
  });

  it('answers 409 taken for a name already used in the same NAS, but accepts it in another NAS', async () => {
    const nas1 = await addNas(t);
    const nas2 = await addNas(t);
    const body = { name: 'dup', path: 'a' };
    expect((await t.call('POST', `/api/v2/nas/${nas1.id}/nas_shares`, { auth: t.basic, body })).status).toBe(201);
    const again = await t.call('POST', `/api/v2/nas/${nas1.id}/nas_shares`, { auth: t.basic, body: { ...body, path: 'b' } });
    const error = await expectModelError(again, 409, 'name', 'taken');
    expect(error.details['name']![0]!.value).toBe('dup');
    expect((await t.call('POST', `/api/v2/nas/${nas2.id}/nas_shares`, { auth: t.basic, body })).status).toBe(201);
    const list = await readJson<ShareCollectionBody>(await t.call('GET', `/api/v2/nas/${nas1.id}/nas_shares`, { auth: t.basic }));
    expect(list.count).toBe(1);
    expect(list.nas_shares[0]!.path).toBe('a');
  });

  it.each([
    ['name missing', { path: 'x' }, 'name', 'blank', undefined],
    ['name empty', { name: '', path: 'x' }, 'name', 'blank', undefined],
    ['name null', { name: null, path: 'x' }, 'name', 'blank', undefined],
    ['path missing', { name: 'n' }, 'path', 'blank', undefined],
    ['name too long', { name: 'n'.repeat(256), path: 'x' }, 'name', 'too_long', 255],
    ['path too long', { name: 'n', path: 'p'.repeat(4097) }, 'path', 'too_long', 4096],
    ['options with whitespace', { name: 'n', path: 'x', options: 'ro, soft' }, 'options', 'invalid', undefined],
    ['options too long', { name: 'n', path: 'x', options: 'o'.repeat(1025) }, 'options', 'too_long', 1024],
    ['username of the wrong type', { name: 'n', path: 'x', username: 42 }, 'username', 'invalid', undefined],
    ['password of the wrong type', { name: 'n', path: 'x', password: ['a'] }, 'password', 'invalid', undefined],
    ['name with a control character', { name: 'a\u0007b', path: 'x' }, 'name', 'invalid', undefined],
  ])('answers 422 for %s and creates nothing', async (_label, body, attribute, type, count) => {
    const nas = await addNas(t);
    const res = await t.call('POST', `/api/v2/nas/${nas.id}/nas_shares`, { auth: t.basic, body });
    const error = await expectModelError(res, 422, attribute, type);
    if (count !== undefined) expect(error.details[attribute]).toContainEqual({ error: type, count });
    expect(error.messages.join(' ')).toContain(attribute);
    const list = await readJson<ShareCollectionBody>(await t.call('GET', `/api/v2/nas/${nas.id}/nas_shares`, { auth: t.basic }));
    expect(list.count).toBe(0);
  });

  it('accepts names and paths of exactly the maximum length', async () => {
    const nas = await addNas(t);
    const res = await t.call('POST', `/api/v2/nas/${nas.id}/nas_shares`, {
      auth: t.basic,
      body: { name: 'n'.repeat(255), path: 'p'.repeat(4096), options: 'o'.repeat(1024) },
    });
    expect(res.status).toBe(201);
    const share = await readJson<NasShare>(res);
    expect(share.name).toHaveLength(255);
    expect(share.path).toHaveLength(4096);
  });
});

describe('GET a share in each route family', () => {
  it('shows the share by id and by name under its NAS, /nas_shares and its pool', async () => {
    const { share, families } = await world();
    for (const family of families) {
      for (const ref of [String(share.id), share.name]) {
        const res = await t.call('GET', `${family}/${ref}`, { auth: t.basic });
        expect(res.status, `${family}/${ref}`).toBe(200);
        expect(await res.json()).toEqual({ ...share, password: 'pw-1' });
      }
    }
  });

  it('answers 404 not_found for an unknown id or name in every family', async () => {
    const { families } = await world();
    for (const family of families) {
      for (const ref of ['999999', 'no-such-share']) {
        const res = await t.call('GET', `${family}/${ref}`, { auth: t.basic });
        const body = await expectModelError(res, 404, 'nas_share_id', 'not_found');
        expect(body.details['nas_share_id']![0]!.value).toBe(ref);
      }
    }
  });

  it('answers 404 for an unknown NAS or pool in the path', async () => {
    const { share } = await world();
    await expectModelError(await t.call('GET', `/api/v2/nas/999999/nas_shares/${share.id}`, { auth: t.basic }), 404, 'nas_id', 'not_found');
    await expectModelError(await t.call('GET', `/api/v2/nas/no-such/nas_shares`, { auth: t.basic }), 404, 'nas_id', 'not_found');
    await expectModelError(await t.call('GET', `/api/v2/pools/999999/nas_shares/${share.id}`, { auth: t.basic }), 404, 'pool_id', 'not_found');
    await expectModelError(await t.call('GET', `/api/v2/pools/no-such/nas_shares`, { auth: t.basic }), 404, 'pool_id', 'not_found');
  });

  it('answers 404 for a share addressed under a NAS or pool it does not belong to, for GET, PUT and DELETE', async () => {
    const { share } = await world();
    const otherNas = await addNas(t);
    const otherPool = await addPool(t);
    const outside = [
      `/api/v2/nas/${otherNas.id}/nas_shares`,
      `/api/v2/nas/${otherNas.name}/nas_shares`,
      `/api/v2/pools/${otherPool.id}/nas_shares`,
      `/api/v2/pools/${otherPool.name}/nas_shares`,
    ];
    for (const family of outside) {
      for (const ref of [String(share.id), share.name]) {
        await expectModelError(await t.call('GET', `${family}/${ref}`, { auth: t.basic }), 404, 'nas_share_id', 'not_found');
        await expectModelError(await t.call('PUT', `${family}/${ref}`, { auth: t.basic, body: { path: 'moved' } }), 404, 'nas_share_id', 'not_found');
        await expectModelError(await t.call('DELETE', `${family}/${ref}`, { auth: t.basic }), 404, 'nas_share_id', 'not_found');
      }
    }
    const still = await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic });
    expect(still.status).toBe(200);
    expect((await readJson<NasShare>(still)).path).toBe(share.path);
  });

  it('answers 404 under a pool for a share that is in no pool', async () => {
    const nas = await addNas(t);
    const share = await addShare(t, nas);
    const pool = await addPool(t);
    await expectModelError(await t.call('GET', `/api/v2/pools/${pool.id}/nas_shares/${share.id}`, { auth: t.basic }), 404, 'nas_share_id', 'not_found');
  });

  it('answers 400 for a name that two NASes share under /nas_shares, and finds it under each NAS', async () => {
    const name = unique('twin');
    const nas1 = await addNas(t);
    const nas2 = await addNas(t);
    const a = await addShare(t, nas1, { name });
    const b = await addShare(t, nas2, { name });
    await expectModelError(await t.call('GET', `/api/v2/nas_shares/${name}`, { auth: t.basic }), 400, 'nas_share_id', 'invalid');
    expect((await readJson<NasShare>(await t.call('GET', `/api/v2/nas/${nas1.id}/nas_shares/${name}`, { auth: t.basic }))).id).toBe(a.id);
    expect((await readJson<NasShare>(await t.call('GET', `/api/v2/nas/${nas2.id}/nas_shares/${name}`, { auth: t.basic }))).id).toBe(b.id);
  });
});

describe('PUT a share (partial update)', () => {
  it('updates through every family and answers the modified share', async () => {
    const { share, families } = await world();
    for (const [i, family] of families.entries()) {
      const res = await t.call('PUT', `${family}/${share.id}`, { auth: t.basic, body: { path: `new/${i}` } });
      expect(res.status, family).toBe(200);
      expect(await res.json()).toEqual({ ...share, password: 'pw-1', path: `new/${i}` });
    }
  });

  it('leaves absent fields unchanged and clears optional fields given as null', async () => {
    const nas = await addNas(t);
    const share = await addShare(t, nas, { options: 'ro', username: 'u', password: 'p' });
    const renamed = await t.call('PUT', `/api/v2/nas_shares/${share.id}`, { auth: t.basic, body: { name: 'renamed' } });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({ ...share, name: 'renamed', password: 'p' });

    const cleared = await t.call('PUT', `/api/v2/nas_shares/${share.id}`, { auth: t.basic, body: { options: null, username: null, password: null } });
    expect(cleared.status).toBe(200);
    expect(await cleared.json()).toEqual({ ...share, name: 'renamed', options: null, username: null, password: null });
    const shown = await readJson<NasShare>(await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic }));
    expect(shown).toMatchObject({ options: null, username: null, password: null, path: share.path });
  });

  it('ignores read-only fields and refuses unknown ones', async () => {
    const { share } = await world();
    const unknown = await t.call('PUT', `/api/v2/nas_shares/${share.id}`, {
      auth: t.basic,
      body: { id: 4242, nas_id: 4242, pool_id: null, file_count: 99, file_size_sum: 99, shoe_size: 44, username: 'changed' },
    });
    await expectModelError(unknown, 422, 'shoe_size', 'unknown');
    expect((await readJson<NasShare>(await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic }))).username).toBe(share.username);
    const res = await t.call('PUT', `/api/v2/nas_shares/${share.id}`, {
      auth: t.basic,
      body: { id: 4242, nas_id: 4242, pool_id: null, file_count: 99, file_size_sum: 99, username: 'changed' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...share, password: 'pw-1', username: 'changed' });
  });

  it('accepts a GET body sent back unchanged and answers the same body', async () => {
    const { share } = await world();
    for (const path of [`/api/v2/nas_shares/${share.id}`, `/api/v2/pools/${share.pool_id}/nas_shares/${share.id}`]) {
      const before = await (await t.call('GET', path, { auth: t.basic })).json();
      const res = await t.call('PUT', path, { auth: t.basic, body: before });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(before);
    }
  });

  it('answers 409 taken when renaming to a name used in the same NAS, and allows keeping its own name', async () => {
    const nas = await addNas(t);
    const a = await addShare(t, nas);
    const b = await addShare(t, nas);
    const res = await t.call('PUT', `/api/v2/nas/${nas.id}/nas_shares/${b.id}`, { auth: t.basic, body: { name: a.name } });
    await expectModelError(res, 409, 'name', 'taken');
    expect((await readJson<NasShare>(await t.call('GET', `/api/v2/nas_shares/${b.id}`, { auth: t.basic }))).name).toBe(b.name);
    expect((await t.call('PUT', `/api/v2/nas_shares/${b.id}`, { auth: t.basic, body: { name: b.name } })).status).toBe(200);
    const other = await addNas(t);
    const c = await addShare(t, other);
    expect((await t.call('PUT', `/api/v2/nas_shares/${c.id}`, { auth: t.basic, body: { name: a.name } })).status).toBe(200);
  });

  it.each([
    ['name null', { name: null }, 'name', 'blank'],
    ['path empty', { path: '' }, 'path', 'blank'],
    ['name too long', { name: 'x'.repeat(256) }, 'name', 'too_long'],
    ['options invalid', { options: 'a=b c' }, 'options', 'invalid'],
  ])('answers 422 for %s and leaves the share unchanged', async (_label, body, attribute, type) => {
    const { share } = await world();
    await expectModelError(await t.call('PUT', `/api/v2/nas_shares/${share.id}`, { auth: t.basic, body }), 422, attribute, type);
    expect(await (await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic })).json()).toEqual({ ...share, password: 'pw-1' });
  });

  it('answers 404 for an unknown share in every family', async () => {
    const { families } = await world();
    for (const family of families) {
      await expectModelError(await t.call('PUT', `${family}/999999`, { auth: t.basic, body: { path: 'x' } }), 404, 'nas_share_id', 'not_found');
    }
  });
});

describe('DELETE a share', () => {
  it('answers 204 without a body in every family, after which the share is 404', async () => {
    for (const familyIndex of [0, 1, 2]) {
      const { share, families } = await world();
      const family = families[familyIndex]!;
      const res = await t.call('DELETE', `${family}/${share.id}`, { auth: t.basic });
      expect(res.status, family).toBe(204);
      expect(await res.text()).toBe('');
      await expectModelError(await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic }), 404, 'nas_share_id', 'not_found');
      await expectModelError(await t.call('DELETE', `${family}/${share.id}`, { auth: t.basic }), 404, 'nas_share_id', 'not_found');
    }
  });

  it('deletes by name under its NAS', async () => {
    const nas = await addNas(t);
    const share = await addShare(t, nas);
    expect((await t.call('DELETE', `/api/v2/nas/${nas.name}/nas_shares/${share.name}`, { auth: t.basic })).status).toBe(204);
    expect((await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic })).status).toBe(404);
  });
});

describe('share lists per family', () => {
  it('lists only the shares of the NAS or pool in the path, with count', async () => {
    const { nas, pool, share } = await world();
    const sibling = await addShare(t, nas);
    const stranger = await addShare(t, await addNas(t));
    const byNas = await readJson<ShareCollectionBody>(await t.call('GET', `/api/v2/nas/${nas.name}/nas_shares`, { auth: t.basic }));
    expect(byNas.count).toBe(2);
    expect(byNas.nas_shares.map((s) => s.id)).toEqual([share.id, sibling.id]);
    const byPool = await readJson<ShareCollectionBody>(await t.call('GET', `/api/v2/pools/${pool.name}/nas_shares`, { auth: t.basic }));
    expect(byPool).toEqual({ count: 1, nas_shares: [{ ...share, password: 'pw-1' }] });
    const all = await readJson<ShareCollectionBody>(
      await t.call('GET', `/api/v2/nas_shares?limit=100&id=><${share.id}|${sibling.id}|${stranger.id}`, { auth: t.basic }),
    );
    expect(all.count).toBe(3);
  });
});

describe('share passwords', () => {
  it('are encrypted at rest: the plain text is in no database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dms-share-password-'));
    const app = await createTestApp({ dataDir: dir });
    try {
      const plain = 'Plain-Text-Secret-7f3a9c';
      const nas = await addNas(app);
      const res = await app.call('POST', `/api/v2/nas/${nas.id}/nas_shares`, { auth: app.basic, body: { name: 's', path: 'p', password: plain } });
      expect(res.status).toBe(201);
      const share = await readJson<NasShare>(res);
      expect(share.password).toBe(plain);
      const record = await app.storage.shares.get(share.id);
      expect(record?.password_enc).toMatch(/^v1:/);
      expect(record?.password_enc).not.toContain(plain);
      const files = readdirSync(dir);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        expect(readFileSync(join(dir, file)).includes(Buffer.from(plain)), file).toBe(false);
      }
      // still readable through the API
      expect((await readJson<NasShare>(await app.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: app.basic }))).password).toBe(plain);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are left out of show, list, create and update answers for a key without get_password', async () => {
    const { nas, share } = await world();
    const key = await t.bearer('nas_shares/show', 'nas_shares/index', 'nas_shares/create', 'nas_shares/update');
    const shown = await readJson<NasShare>(await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: key }));
    expect(shown).not.toHaveProperty('password');
    expect(shown).toEqual({ ...share, password: undefined });
    const list = await readJson<ShareCollectionBody>(await t.call('GET', `/api/v2/nas/${nas.id}/nas_shares`, { auth: key }));
    for (const item of list.nas_shares) expect(item).not.toHaveProperty('password');
    const created = await t.call('POST', `/api/v2/nas/${nas.id}/nas_shares`, { auth: key, body: { name: unique('s'), path: 'p', password: 'secret-x' } });
    expect(created.status).toBe(201);
    expect(await created.text()).not.toContain('secret-x');
    const updated = await t.call('PUT', `/api/v2/nas_shares/${share.id}`, { auth: key, body: { password: 'secret-y' } });
    expect(updated.status).toBe(200);
    expect(await updated.text()).not.toContain('secret-y');
    expect((await readJson<NasShare>(await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic }))).password).toBe('secret-y');
  });
});
