import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { maxPathBytes } from '../../src/pipeline/pipeline.js';

/**
 * Findings of the adversarial security review: CORS pattern matching before authentication,
 * the null origin, and the headers that keep a browser from misreading an answer.
 */
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const addCorsRule = async (body: object) => {
  const created = await t.call('POST', '/api/v2/cors_rules', { auth: t.basic, body });
  expect(created.status).toBe(201);
};

const pathOfBytes = (bytes: number) => `/api/v2/nas${'/'.repeat(bytes - '/api/v2/nas'.length - 1)}x`;

describe('Finding 2: one unauthenticated request stalls the server', () => {
  const tooLong = {
    details: { path: [{ error: 'too_long', count: 8192 }] },
    messages: ['request path is longer than 8192 bytes'],
  };

  it('answers a backtracking-prone path of the longest accepted length through CORS, before credentials', async () => {
    // With the old regex matcher this request alone took minutes.
    await addCorsRule({ origins: ['*'], path: '/api/v2/nas*/*/*/test', methods: ['PUT'] });
    const path = pathOfBytes(maxPathBytes);
    expect(path).toHaveLength(8192);
    const response = await t.call('PUT', path, { headers: { origin: 'https://app.example' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers 414 to a path longer than 8192 bytes, on matched and unmatched routes, before CORS and credentials', async () => {
    await addCorsRule({ origins: ['*'], path: '*', methods: ['GET', 'PUT'] });
    const long = `${pathOfBytes(maxPathBytes)}y`;
    for (const [method, path] of [
      ['PUT', long],
      ['GET', long],
      ['OPTIONS', long],
      // A route that matches (a NAS id), and a path no route knows.
      ['GET', `/api/v2/nas/${'1'.repeat(maxPathBytes)}`],
      ['GET', `/nowhere/${'a'.repeat(maxPathBytes)}`],
    ] as const) {
      const response = await t.call(method, path, { headers: { origin: 'https://app.example', 'access-control-request-method': 'PUT' } });
      expect(response.status, `${method} ${path.length}`).toBe(414);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(await response.json()).toEqual(tooLong);
    }
  });

  it('still answers a path of exactly 8192 bytes as the route would: 404 for an unknown id', async () => {
    const path = `/api/v2/nas_shares/${'x'.repeat(maxPathBytes - '/api/v2/nas_shares/'.length)}`;
    expect(path).toHaveLength(8192);
    const response = await t.call('GET', path, { auth: t.basic });
    expect(response.status).toBe(404);
    expect((await response.json()) as { details: object }).toMatchObject({ details: { nas_share_id: [{ error: 'not_found' }] } });
  });

  it('counts the path as sent, percent-encoded, and not its query', async () => {
    const encoded = `/api/v2/nas/${'%61'.repeat(Math.ceil(maxPathBytes / 3))}`;
    expect((await t.call('GET', encoded, { auth: t.basic })).status).toBe(414);
    const longQuery = `/api/v2/nas?name=${'a'.repeat(maxPathBytes)}`;
    expect((await t.call('GET', longQuery, { auth: t.basic })).status).not.toBe(414);
  });
});

describe('Finding 13: a * origin rule answers Access-Control-Allow-Origin: null', () => {
  beforeEach(() => addCorsRule({ origins: ['*'], path: '*', methods: ['GET', 'POST', 'PUT', 'DELETE'] }));

  it('gives the null origin no Access-Control-Allow-Origin, on a preflight or an actual request', async () => {
    const preflight = await t.call('OPTIONS', '/api/v2/nas', { headers: { origin: 'null', 'access-control-request-method': 'GET' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();

    const actual = await t.call('GET', '/api/v2/nas', { auth: t.basic, headers: { origin: 'null' } });
    expect(actual.status).toBe(200);
    expect(actual.headers.get('access-control-allow-origin')).toBeNull();
    expect(actual.headers.get('vary')).toBe('Origin');
  });

  it('still allows a real origin through the same rule', async () => {
    const actual = await t.call('GET', '/api/v2/nas', { auth: t.basic, headers: { origin: 'https://app.example' } });
    expect(actual.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });
});

describe('nosniff and a strict Content-Security-Policy', () => {
  const directivesOf = (policy: string) =>
    new Map(
      policy.split(';').map((directive) => {
        const [name = '', ...values] = directive.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );

  it('serves the API reference with nosniff and a CSP without remote origins, inline script or eval', async () => {
    const page = await t.call('GET', '/api/v2/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = page.headers.get('content-security-policy') ?? '';
    const directives = directivesOf(policy);
    expect(directives.get('default-src')).toBe("'none'");
    // Scalar's bundle comes from this server; nothing else may run, not even inline.
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('connect-src')).toBe("'self'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('form-action')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(policy).not.toContain('unsafe-eval');
    // No remote origin, scheme wildcard or `*` anywhere: only 'self' and data: (icons, fonts).
    for (const [name, value] of directives) {
      for (const source of value.split(' ').filter(Boolean)) {
        expect(["'none'", "'self'", "'unsafe-inline'", 'data:'], `${name} ${source}`).toContain(source);
      }
      if (value.includes("'unsafe-inline'")) expect(name, 'only styles may be inline').toBe('style-src');
    }
    // Every script of the page is the same-origin bundle or data no browser runs.
    const html = await page.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes = '', body = ''] of scripts) {
      if (/\bsrc="/.test(attributes)) expect(attributes).toMatch(/src="docs\?asset=scalar\.js(?:&amp;|&#38;)v=[^"]+"/);
      else expect(attributes).toContain('type="application/json"');
      expect(body.trim()).toBe('');
    }
    expect(html).toContain('data-url="openapi.json"');
  });

  it('serves the Scalar bundle without a credential, cacheable, with nosniff and an ETag', async () => {
    const asset = await t.call('GET', '/api/v2/docs?asset=scalar.js&v=1');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    expect((await asset.text()).length).toBeGreaterThan(100_000);
    const etag = asset.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const revalidated = await t.call('GET', '/api/v2/docs?asset=scalar.js&v=1', { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    const unknown = await t.call('GET', '/api/v2/docs?asset=other.js');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('application/json');
  });

  it('keeps the headers on a 304 revalidation of the docs page', async () => {
    const etag = (await t.call('GET', '/api/v2/docs')).headers.get('etag') ?? '';
    const revalidated = await t.call('GET', '/api/v2/docs', { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(revalidated.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends nosniff on JSON answers, errors and empty answers', async () => {
    const answers = [
      await t.call('GET', '/api/v2'),
      await t.call('GET', '/api/v2/nas', { auth: t.basic }),
      await t.call('GET', '/api/v2/nas'),
      await t.call('GET', '/nowhere'),
      await t.call('OPTIONS', '/api/v2/nas', { headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } }),
    ];
    for (const answer of answers) expect(answer.headers.get('x-content-type-options'), `${answer.status}`).toBe('nosniff');
  });
});
