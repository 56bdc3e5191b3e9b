import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppCaller } from '../src/main/router/index.js';
import { adminPassword, openTestDesktop, type TestDesktop } from './test-desktop.js';

// Issue 25 item 5: the console says how many shares a deleted pool released (they are kept, in no pool).

let t: TestDesktop;
let admin: AppCaller;

beforeAll(async () => {
  t = await openTestDesktop();
  admin = t.caller();
  await admin.auth.signIn({ username: 'admin', password: adminPassword });
});
afterAll(async () => {
  await t?.close();
});

it('pools.delete answers the shares the pool released, which stay in no pool; another delete answers nothing', async () => {
  await admin.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
  const a = await admin.shares.create({ nas: 'filer', body: { name: 'a', path: 'a' } });
  const b = await admin.shares.create({ nas: 'filer', body: { name: 'b', path: 'b' } });
  await admin.pools.create({ name: 'hot', type: 'primary', content: 'nas' });
  await admin.pools.update({ pool: 'hot', body: { nas_share_ids: [a.id, b.id] } });
  expect(await admin.pools.delete({ pool: 'hot' })).toEqual({ released_nas_share_ids: [a.id, b.id] });
  expect((await admin.shares.show({ share: a.id })).pool_id).toBeNull();
  await admin.pools.create({ name: 'cold', type: 'scratch', content: 'nas' });
  expect(await admin.pools.delete({ pool: 'cold' })).toEqual({ released_nas_share_ids: [] });
  await admin.nas.create({ name: 'gone', host: 'localhost', type: 'local' });
  expect(await admin.nas.delete({ nas: 'gone' })).toBeUndefined();
});
