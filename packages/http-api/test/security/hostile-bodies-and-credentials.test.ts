import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { expectModelError } from '../../src/testing/fixtures.js';
import { maxJsonDepth } from '../../src/http/json-depth.js';

const basicOf = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const nested = (depth: number) => `{"username":${'['.repeat(depth)}${']'.repeat(depth)},"password":"x"}`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('security review 2: hostile bodies and credentials at the edge', () => {
  it('finding 20.2: a login body nested 400,000 deep is refused without JSON.parse building it', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const body = nested(400_000);
      const res = await t.app.request('/api/v2/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      // Refused by length before anything reads its structure: a login is a name and a password.
      expect(res.status).toBe(413);
      expect(parse.mock.calls.some(([text]) => typeof text === 'string' && text.length > 4096)).toBe(false);
    } finally {
      parse.mockRestore();
    }
  });

  it('finding 20.2: a login body sent as text/plain is never parsed', async () => {
    const res = await t.app.request('/api/v2/auth/login', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: nested(100) });
    await expectModelError(res, 415, 'content-type');
  });

  it('finding 20.2: any body nesting deeper than the bound is 400 naming it, before it is parsed', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const res = await t.app.request('/api/v2/nas', {
        method: 'POST',
        headers: { authorization: t.basic, 'content-type': 'application/json' },
        body: `{"name":${'['.repeat(200_000)}${']'.repeat(200_000)}}`,
      });
      const body = await expectModelError(res, 400, 'body');
      expect(body.messages.join(' ')).toContain(`deeper than ${maxJsonDepth}`);
      expect(parse.mock.calls.some(([text]) => typeof text === 'string' && text.startsWith('{"name":[[['))).toBe(false);
    } finally {
      parse.mockRestore();
    }
    // A body at the bound is read as usual (and judged by the resource's schema).
    const atBound = `{"name":"ok-depth","host":"h","type":"local","comment":${'['.repeat(maxJsonDepth - 1)}${']'.repeat(maxJsonDepth - 1)}}`;
    const res = await t.app.request('/api/v2/nas', { method: 'POST', headers: { authorization: t.basic, 'content-type': 'application/json' }, body: atBound });
    await expectModelError(res, 422, 'comment');
  });

  it('finding 20.2: no body is read before a request is authenticated', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const res = await t.app.request('/api/v2/nas', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"anonymous"}' });
      expect(res.status).toBe(401);
      expect(parse.mock.calls.some(([text]) => text === '{"name":"anonymous"}')).toBe(false);
    } finally {
      parse.mockRestore();
    }
  });

  it('finding 20.9: a Basic user name holding NUL, or longer than any user name, is 401 without a 500', async () => {
    for (const auth of [
      basicOf('adm\u0000in', 'x'),
      basicOf('\u0000', 'x'),
      basicOf('a'.repeat(300), 'x'),
      basicOf('admin', 'pass\u0000word'),
      'Bearer dms_\u0001abc',
      `Bearer ${'x'.repeat(10_000)}`,
    ]) {
      const res = await t.call('GET', '/api/v2/nas', { auth });
      await expectModelError(res, 401, 'authorization');
    }
    expect((await t.call('GET', '/api/v2/nas', { auth: t.basic })).status).toBe(200);
  });
});
