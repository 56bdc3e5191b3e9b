import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addShare, expectModelError, type Nas } from '../../src/testing/fixtures.js';

const api = (path: string) => `/api/v2${path}`;
const basicOf = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/**
 * Findings 4 and 16 through REST: the statuses, headers and metrics of job admission. Each
 * branch of the rules is proved on both storage adapters by the core:
 * packages/core/src/services/job-admission.test.ts. The test app does not start the job engine:
 * queued jobs stay queued, so the bounds are reached deterministically.
 */
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

  it('a job beyond the bounds is 429 (per user) or 503 (overall), with Retry-After, and counted in /metrics', async () => {
    await settings({ job_queue_max_per_principal: 2, job_queue_max_total: 3 });
    for (let i = 0; i < 2; i++) expect((await startTest(bob)).status).toBe(202);
    const perUser = await startTest(bob);
    await expectModelError(perUser.clone(), 429, 'jobs');
    expect(Number(perUser.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await startTest(t.basic)).status).toBe(202);
    const full = await startTest(t.basic);
    await expectModelError(full.clone(), 503, 'jobs');
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    const metrics = await (await t.call('GET', '/metrics', { auth: t.basic })).text();
    expect(metrics).toMatch(/dms_job_rejections_total\{reason="per_principal"\} 1/);
    expect(metrics).toMatch(/dms_job_rejections_total\{reason="overall"\} 1/);
  });

  it('the three job routes answer share_test_allowed_hosts with a 422 on host naming the setting', async () => {
    const share = await addShare(t, nas, { path: 'data' });
    await settings({ share_test_allowed_hosts: ['10.0.0.0/8'] });
    for (const path of [`/nas/${nas.id}/nas_shares/-/test`, `/nas_shares/${share.id}/test`, `/nas_shares/${share.id}/scan`]) {
      const error = await expectModelError(await t.call('PUT', api(path), { auth: t.basic, body: { name: 'probe', path: 'data' } }), 422, 'host');
      expect(error.messages.join(' '), path).toContain('share_test_allowed_hosts');
    }
    await expectModelError(await t.call('PUT', api('/settings'), { auth: t.basic, body: { share_test_allowed_hosts: ['not a host!'] } }), 422);
  });
});
