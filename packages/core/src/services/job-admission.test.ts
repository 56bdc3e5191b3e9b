import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Principal } from '../scopes/principal.js';
import type { Nas } from '../domain/nas.js';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import { outcomeOf, refusalOf } from '../testing/domain-outcome.js';

/**
 * Security review, findings 4 and 16 (docs/decisions/028-job-bounds-and-fair-claims.md): what JobService admits before it queues a
 * job. The test core runs no job workers, so queued jobs stay queued and the bounds are reached
 * deterministically. The REST routes that reach these rules (429 / 503 with Retry-After, the
 * rejection metrics): http-api test/security/job-admission.test.ts.
 */
describeOnEachAdapter('job admission', (open) => {
  let t: TestCore;
  let admin: Principal;
  let nas: Nas;
  const bob = () => t.asUser('bob', 'bob-pass-123456');
  beforeEach(async () => {
    t = await open();
    admin = await t.asUser(testAdmin.username, testAdmin.password);
    nas = await t.core.nas.create(admin, { name: 'filer', type: 'smb_v3', host: '192.0.2.10' });
    await t.core.users.create(admin, { username: 'bob', password: 'bob-pass-123456' });
  });
  afterEach(() => t.close());

  const settings = (body: Record<string, unknown>) => t.core.settings.update(admin, body);
  const startTest = (principal: Principal, on: Nas = nas) => t.core.jobs.testUnsaved(principal, String(on.id), { name: 'probe', path: 'data' });

  it('finding 4: unfinished jobs are bounded per user (429) and overall (503), with Retry-After', async () => {
    await settings({ job_queue_max_per_principal: 2, job_queue_max_total: 3 });
    const bobKey = await t.asBearer((await t.core.apiKeys.create(await bob(), { name: 'k', api_key_scopes: [{ controller: 'nas_shares', action: '*' }] })).key);
    expect(await outcomeOf(startTest(await bob()))).toBe('ok');
    expect(await outcomeOf(startTest(bobKey))).toBe('ok');
    // Bob's key shares Bob's budget: more keys buy no more jobs.
    const perUser = await refusalOf(startTest(bobKey));
    expect(perUser.code).toBe('rate_limited');
    expect(perUser.retryAfter).toBeGreaterThan(0);
    expect(perUser.details).toHaveProperty('jobs');
    expect(await outcomeOf(startTest(admin))).toBe('ok');
    const full = await refusalOf(startTest(admin));
    expect(full.code).toBe('unavailable');
    expect(full.retryAfter).toBeGreaterThan(0);
    expect(t.core.jobs.rejections()).toEqual({ per_principal: 1, overall: 1 });
  });

  it('finding 16: with share_test_allowed_hosts set, tests and scans reach only the listed hosts', async () => {
    const share = await t.core.shares.create(admin, String(nas.id), { name: 'data', path: 'data' });
    await settings({ share_test_allowed_hosts: ['10.0.0.0/8', 'files.example'] });
    const all = { kind: 'all' } as const;
    const requests: Array<[string, () => Promise<unknown>]> = [
      ['test unsaved', () => startTest(admin)],
      ['test saved', () => t.core.jobs.testSaved(admin, all, String(share.id))],
      ['scan', () => t.core.jobs.scan(admin, all, String(share.id))],
    ];
    for (const [what, request] of requests) {
      const error = await refusalOf(request());
      expect(error.code, what).toBe('validation');
      expect(error.details).toHaveProperty('host');
      expect(error.messages.join(' ')).toContain('share_test_allowed_hosts');
    }
    await t.core.nas.update(admin, String(nas.id), { host: '10.1.2.3' });
    expect(await outcomeOf(startTest(admin))).toBe('ok');
    await t.core.nas.update(admin, String(nas.id), { host: 'FILES.example' });
    expect(await outcomeOf(startTest(admin))).toBe('ok');
    const local = await t.core.nas.create(admin, { name: 'here', type: 'local', host: 'localhost' });
    expect(await outcomeOf(t.core.jobs.testUnsaved(admin, String(local.id), { name: 'l', path: 'x' }))).toBe('ok');
    expect(await outcomeOf(settings({ share_test_allowed_hosts: ['not a host!'] }))).toBe('validation');
  });
});
