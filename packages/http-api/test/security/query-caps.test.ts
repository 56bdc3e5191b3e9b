import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addShare, expectModelError, readJson, type ShareCollectionBody } from '../../src/testing/fixtures.js';

describe('security review: query caps', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await addShare(t, await addNas(t), { name: 'a' });
  });
  afterAll(() => t.close());

  const list = (query: string) => t.call('GET', `/api/v2/nas_shares?${query}`, { auth: t.basic });

  it('finding 9: 500 repeats of a filter are 400, not 500 (Expression tree is too large)', async () => {
    await expectModelError(await list(Array.from({ length: 500 }, () => 'name=a').join('&')), 400, 'name');
    await expectModelError(await list(Array.from({ length: 33 }, () => 'bogus=1').join('&')), 400, 'bogus');
  });

  it('finding 9: filter terms across parameters are capped at 32; up to the cap they work', async () => {
    const terms = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 'name=a' : 'id=>0')).join('&');
    await expectModelError(await list(terms(33)), 400);
    const res = await list(terms(32));
    expect(res.status).toBe(200);
    expect((await readJson<ShareCollectionBody>(res)).count).toBe(1);
  });
});
