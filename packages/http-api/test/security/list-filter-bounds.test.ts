import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patternBounds } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addShare, expectModelError, readJson, type ShareCollectionBody } from '../../src/testing/fixtures.js';

/**
 * Issue 40 items 1 and 8 over REST, on each storage adapter (the vitest projects): what a pattern
 * filter may cost is bounded before it runs (docs/decisions/101-list-filter-bounds.md), and a
 * pattern reads the same on both (docs/decisions/102-like-escape.md).
 */
describe('list filter bounds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const filer = await addNas(t);
    await addShare(t, filer, { name: 'proj_a', path: '/tmp/export/proj_a' });
    await addShare(t, filer, { name: 'proj-b', path: '/tmp/export/proj-b' });
  });
  afterAll(() => t.close());

  const list = (query: string) => t.call('GET', `/api/v2/nas_shares?${query}`, { auth: t.basic });
  const names = async (query: string) => {
    const res = await list(query);
    expect(res.status, query).toBe(200);
    return (await readJson<ShareCollectionBody>(res)).nas_shares.map((share) => share.name);
  };

  it("issue 40 item 1: the review's GET /nas_shares with six path=!~%a{2048}b terms is a 400 naming the bound, before it runs", async () => {
    const review = Array.from({ length: 6 }, () => `path=${encodeURIComponent(`!~%${'a'.repeat(2048)}b`)}`).join('&');
    const body = await expectModelError(await list(review), 400, 'path', 'invalid');
    expect(body.messages).toEqual([
      `path pattern is 2050 characters long: a pattern with a wildcard other than one final % is at most ${patternBounds.maxLength} characters`,
    ]);
    const terms = Array.from({ length: patternBounds.maxTerms + 1 }, () => `path=${encodeURIComponent('!~%a%')}`).join('&');
    expect((await expectModelError(await list(terms), 400, 'path', 'invalid')).messages).toEqual([
      `a list takes at most ${patternBounds.maxTerms} pattern terms (~ !~ ~* !~*)`,
    ]);
  });

  it('issue 40 item 1: legitimate patterns still answer', async () => {
    expect(await names(`name=${encodeURIComponent('~proj%')}`)).toEqual(['proj_a', 'proj-b']);
    expect(await names(`path=${encodeURIComponent('~%/proj%')}&name=${encodeURIComponent('!~*%B')}`)).toEqual(['proj_a']);
    const longest = `~%${'/export/'.repeat(7).slice(0, patternBounds.maxLength - 2)}%`;
    expect(await names(`path=${encodeURIComponent(longest)}`)).toEqual([]);
  });

  it('issue 40 item 8: a pattern ending in a backslash is a 400 saying how to escape on both adapters, and an escaped wildcard is literal', async () => {
    const body = await expectModelError(await list(`name=${encodeURIComponent('~proj\\')}`), 400, 'name', 'invalid');
    expect(body.messages).toEqual(['name pattern ends in a backslash, which escapes nothing: write \\\\ to match a backslash, \\% and \\_ to match % and _']);
    expect(await names(`name=${encodeURIComponent('~proj\\_%')}`)).toEqual(['proj_a']);
    expect(await names(`name=${encodeURIComponent('~%\\\\')}`)).toEqual([]);
  });
});
