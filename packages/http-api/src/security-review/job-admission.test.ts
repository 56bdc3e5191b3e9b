import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { addNas, addShare, readJson, type Nas } from '../testing/fixtures.js';

const api = (path: string) => `/api/v2${path}`;
const basicOf = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** The test app does not start the job engine: queued jobs stay queued, so the bounds are reached deterministically. */
describe('security review: job admission', () => {
  let t: TestApp;
  let nas: Nas;
  const bob = basicOf('bob', 'bob-pass-123456');
  beforeEach(async () => {
    t = await createTestApp();
    nas = await addNas(t, { type: 'smb_v3', host: '192.0.2.10' });
    await t.call('POST', api('/users'), { auth: t.basic, body: { username: 'bob', password: 'bob-pass-123456' } });
  });
  afterEach(() => t.close());

  const settings = async (body: Record<string, unknown>) => {
    const res = await t.call('PUT', api('/settings'), { auth: t.basic, body });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const startTest = (auth: string) => t.call('PUT', api(`/nas/${nas.id}/nas_shares/-/test`), { auth, body: { name: 'probe', path: 'data' } });

  it('finding 4: unfinished jobs are bounded per user (429) and overall (503), with Retry-After', async () => {
    await settings({ job_queue_max_per_principal: 2, job_queue_max_total: 3 });
    const bobKey = await t.call('POST', api('/api_keys'), { auth: bob, body: { name: 'k', api_key_scopes: [{ controller: 'nas_shares', action: '*' }] } });
    const keyAuth = `Bearer ${(await readJson<{ key: string }>(bobKey)).key}`;
    expect((await startTest(bob)).status).toBe(202);
    expect((await startTest(keyAuth)).status).toBe(202);
    // Bob's key shares Bob's budget: more keys buy no more jobs.
    const perUser = await startTest(keyAuth);
    expect(perUser.status).toBe(429);
    expect(Number(perUser.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await readJson<{ details: Record<string, unknown> }>(perUser)).details).toHaveProperty('jobs');
    expect((await startTest(t.basic)).status).toBe(202);
    const full = await startTest(t.basic);
    expect(full.status).toBe(503);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(t.core.engine.rejections).toEqual({ per_principal: 1, overall: 1 });
    const metrics = await (await t.call('GET', '/metrics', { auth: t.basic })).text();
    expect(metrics).toMatch(/dms_job_rejections_total\{reason="per_principal"\} 1/);
    expect(metrics).toMatch(/dms_job_rejections_total\{reason="overall"\} 1/);
  });

  it('finding 16: with share_test_allowed_hosts set, tests and scans reach only the listed hosts', async () => {
    const share = await addShare(t, nas, { path: 'data' });
    await settings({ share_test_allowed_hosts: ['10.0.0.0/8', 'files.example'] });
    for (const path of [`/nas/${nas.id}/nas_shares/-/test`, `/nas_shares/${share.id}/test`, `/nas_shares/${share.id}/scan`]) {
      const res = await t.call('PUT', api(path), { auth: t.basic, body: { name: 'probe', path: 'data' } });
      expect(res.status, path).toBe(422);
      const error = await readJson<{ details: Record<string, unknown>; messages: string[] }>(res);
      expect(error.details).toHaveProperty('host');
      expect(error.messages.join(' ')).toContain('share_test_allowed_hosts');
    }
    await t.call('PUT', api(`/nas/${nas.id}`), { auth: t.basic, body: { host: '10.1.2.3' } });
    expect((await startTest(t.basic)).status).toBe(202);
    await t.call('PUT', api(`/nas/${nas.id}`), { auth: t.basic, body: { host: 'FILES.example' } });
    expect((await startTest(t.basic)).status).toBe(202);
    const local = await addNas(t, { type: 'local', host: 'localhost' });
    expect((await t.call('PUT', api(`/nas/${local.id}/nas_shares/-/test`), { auth: t.basic, body: { name: 'l', path: 'x' } })).status).toBe(202);
    const bad = await t.call('PUT', api('/settings'), { auth: t.basic, body: { share_test_allowed_hosts: ['not a host!'] } });
    expect(bad.status).toBe(422);
  });
});
