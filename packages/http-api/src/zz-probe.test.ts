import { it } from 'vitest';
import { createTestApp } from './testing/test-app.js';
it('probe', async () => {
  const t = await createTestApp();
  await t.call('GET', '/api/v2/nas', { auth: t.basic });
  await t.storage.close();
  for (const p of ['/api/v2/nas', '/api/v2/nas_shares/1', '/readyz', '/api/v2/']) {
    const r = await t.call('GET', p, { auth: t.basic });
    console.log('R', p, r.status, r.headers.get('retry-after'), await r.text());
  }
});
