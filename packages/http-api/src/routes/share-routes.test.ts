import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await t.call('POST', '/api/v2/nas', { auth: t.basic, body: { name: 'nas1', host: 'nas1.example', type: 'smb_v3' } });
});
afterEach(() => t.close());

describe('NAS share routes', () => {
  it('creates a share under a NAS addressed by name and shows it under every family', async () => {
    const created = await t.call('POST', '/api/v2/nas/nas1/nas_shares', { auth: t.basic, body: { name: 'projects', path: 'data/projects' } });
    expect(created.status).toBe(201);
    const share = (await created.json()) as { id: number; nas_id: number; pool_id: null };
    expect(share).toMatchObject({ name: 'projects', nas_id: 1, pool_id: null, file_count: 0, file_size_sum: 0 });
    for (const path of [`/api/v2/nas_shares/${share.id}`, '/api/v2/nas/1/nas_shares/projects', '/api/v2/nas/nas1/nas_shares/projects']) {
      const shown = await t.call('GET', path, { auth: t.basic });
      expect(shown.status, path).toBe(200);
      expect(await shown.json()).toMatchObject({ id: share.id });
    }
  });
});
