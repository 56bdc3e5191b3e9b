import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCaller } from '../src/main/router/index.js';
import { adminPassword, openTestDesktop, type TestDesktop } from './test-desktop.js';

// The shares screen's bulk bar: a selection of all matching shares resolved here across pages
// of 100, one core call per share with its refusals grouped, and pool membership as a union.

let t: TestDesktop;
let admin: AppCaller;
const names = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(3, '0')}`);

beforeAll(async () => {
  t = await openTestDesktop();
  admin = t.caller();
  await admin.auth.signIn({ username: 'admin', password: adminPassword });
  await admin.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
  for (const name of [...names(230, 'bulk'), ...names(3, 'other')]) await admin.shares.create({ nas: 'filer', body: { name, path: 'projects' } });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const idsNamed = async (pattern: string) => (await admin.shares.list({ query: { name: pattern, per_page: 100 } })).nas_shares.map((share) => share.id);

describe('shares.bulk', () => {
  it('resolves "all matching" across pages of 100, with the filter and less the unticked', async () => {
    const matching = await admin.shares.bulk.resolve({ selection: { matching: { name: '~bulk-%', page: '2', per_page: '10', sort_by: 'name:desc' } } });
    expect(matching.count).toBe(230);
    expect(new Set(matching.ids).size).toBe(230);
    const others = await idsNamed('~other-%');
    expect(matching.ids.some((id) => others.includes(id))).toBe(false);

    const less = await admin.shares.bulk.resolve({ selection: { matching: { name: '~bulk-%' }, except: [matching.ids[0]!, matching.ids[229]!] } });
    expect(less.count).toBe(228);
    expect(await admin.shares.bulk.resolve({ selection: { ids: [others[0]!, others[0]!, others[1]!] } })).toEqual({ count: 2, ids: [others[0], others[1]] });
  });

  it('starts one scan per share under the per-user bound and groups the refusals (429) with the bound in words', async () => {
    await admin.settings.update({ job_queue_max_per_principal: 4 });
    try {
      const outcome = await admin.shares.bulk.start({ selection: { matching: { name: '~bulk-%' } }, kind: 'share_scan' });
      const refused = outcome.refused.reduce((sum, group) => sum + group.shareIds.length, 0);
      expect(outcome.accepted + refused).toBe(230);
      // At least the bound; a job that ends meanwhile frees a place for a later share.
      expect(outcome.accepted).toBeGreaterThanOrEqual(4);
      expect(outcome.refused.map((group) => group.code)).toEqual(['rate_limited']);
      expect(outcome.refused[0]!.message).toMatch(/^too many unfinished jobs for this credential \(at most 4\)/);
    } finally {
      await admin.settings.update({ job_queue_max_per_principal: 32 });
    }
  });

  it('keeps a refusal per share and goes on: a share deleted meanwhile is a 404 among accepted tests, each accepted one with its job', async () => {
    const [first, second] = await idsNamed('~other-%');
    await admin.shares.delete({ share: first! });
    const outcome = await admin.shares.bulk.start({ selection: { ids: [first!, second!] }, kind: 'share_test' });
    expect(outcome).toEqual({
      accepted: 1,
      refused: [{ code: 'not_found', message: expect.any(String), shareIds: [first] }],
      jobs: [{ shareId: second, jobId: expect.any(String) }],
    });
    const job = await admin.jobs.get({ jobId: outcome.jobs[0]!.jobId });
    expect([job.kind, job.nas_share_id]).toEqual(['share_test', second]);
  });

  it('adds the selection to a pool: its members become the union, and those already in it are counted', async () => {
    const [one, two, three] = await idsNamed('~bulk-00%');
    const pool = await admin.pools.create({ name: 'hot' });
    await admin.pools.update({ pool: pool.id, body: { nas_share_ids: [one!] } });
    expect(await admin.shares.bulk.addToPool({ selection: { ids: [one!, two!, three!] }, pool: 'hot' })).toEqual({ added: 2, already: 1, pool: 'hot' });
    expect((await admin.pools.show({ pool: 'hot' })).nas_share_ids.sort((a, b) => a - b)).toEqual([one, two, three].sort((a, b) => a! - b!));
  });

  it('deletes all matching but the unticked, and says how many', async () => {
    const keep = (await idsNamed('~bulk-%'))[0]!;
    const outcome = await admin.shares.bulk.delete({ selection: { matching: { name: '~bulk-%' }, except: [keep] } });
    expect(outcome).toEqual({ accepted: 229, refused: [] });
    expect(await idsNamed('~bulk-%')).toEqual([keep]);
  });
});
