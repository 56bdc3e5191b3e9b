import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { requireTools } from '@dms/core/testing';
import type { RunningServer } from './server/serve.js';
import { startCrossOriginScene, type CrossOriginScene } from './testing/browser.js';

/**
 * docs/decisions/047-cors-rules.md in a real browser: a page on another origin calls the API with an
 * Authorization header (so Chromium sends a preflight); only a stored rule for that
 * origin, path and method lets the browser hand the answer to the page. Rules are edited
 * over REST while the server runs.
 */

const chromiumPath = '/usr/bin/chromium';
const tools = requireTools([chromiumPath], 'apt-get install -y chromium');

interface FetchOutcome {
  ok: boolean;
  status?: number;
  body?: unknown;
  requestId?: string | null;
  error?: string;
  message?: string;
}

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!tools.ok)('CORS rules in Chromium', () => {
  let scene: CrossOriginScene;
  let server: RunningServer;
  let pageOrigin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let apiKey: string;
  const adminAuth = `Basic ${Buffer.from('admin:cors-browser-password').toString('base64')}`;

  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: adminAuth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (res.status === 204 ? {} : await res.json()) as Record<string, unknown> };
  };
  const addRule = async (rule: { origins: string[]; path: string; methods: string[] }) => {
    const created = await admin('POST', '/cors_rules', rule);
    expect(created.status).toBe(201);
    return created.body['id'] as number;
  };
  const clearRules = async () => {
    const { body } = await admin('GET', '/cors_rules?per_page=100');
    for (const rule of body['cors_rules'] as Array<{ id: number }>) expect((await admin('DELETE', `/cors_rules/${rule.id}`)).status).toBe(204);
  };

  /** fetch() from the page, as a web application on pageOrigin would call the API. */
  const fetchFromPage = (path: string, method = 'GET'): Promise<FetchOutcome> =>
    page.evaluate(
      async ({ url, key, method }) => {
        try {
          const res = await fetch(url, { method, headers: { Authorization: `Bearer ${key}` } });
          return { ok: true, status: res.status, body: (await res.json()) as unknown, requestId: res.headers.get('X-Request-Id') };
        } catch (error) {
          return { ok: false, error: (error as Error).name, message: (error as Error).message };
        }
      },
      { url: server.url + path, key: apiKey, method },
    );

  beforeAll(async () => {
    scene = await startCrossOriginScene({
      adminPassword: 'cors-browser-password',
      pageHtml: '<!doctype html><title>dms CORS client</title><p>client</p>',
      executablePath: tools.paths[chromiumPath]!,
    });
    ({ server, pageOrigin, browser } = scene);
    const key = await admin('POST', '/api_keys', {
      name: 'browser',
      api_key_scopes: [
        { controller: 'nas_shares', action: 'index' },
        { controller: 'nas', action: 'index' },
      ],
    });
    expect(key.status).toBe(201);
    apiKey = key.body['key'] as string;
  });
  afterAll(() => scene?.stop());
  beforeEach(async () => {
    // A fresh context per test: no preflight answer is cached from an earlier test.
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(`${pageOrigin}/`);
    await clearRules();
  });
  afterEach(async () => {
    await context?.close();
  });

  it('blocks the call when no rule matches (fetch rejects with TypeError)', async () => {
    const outcome = await fetchFromPage('/nas_shares');
    expect(outcome).toMatchObject({ ok: false, error: 'TypeError' });
    // The server itself answers the same request to a client that does not enforce CORS.
    const direct = await fetch(`${server.url}/nas_shares`, { headers: { authorization: `Bearer ${apiKey}`, origin: pageOrigin } });
    expect(direct.status).toBe(200);
    expect(direct.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets the call through once a rule for this origin, path and method is added, without a restart', async () => {
    expect(await fetchFromPage('/nas_shares')).toMatchObject({ ok: false, error: 'TypeError' });
    await context.close();
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(`${pageOrigin}/`);

    await addRule({ origins: [pageOrigin], path: '/api/v2/nas_shares*', methods: ['GET'] });
    const outcome = await fetchFromPage('/nas_shares');
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true, status: 200, body: { count: 0, nas_shares: [] } });
    // Exposed headers are readable by the page.
    expect(outcome.requestId).toBeTruthy();
    // The rule's path pattern is honoured: another resource stays blocked.
    expect(await fetchFromPage('/nas')).toMatchObject({ ok: false, error: 'TypeError' });
  });

  it('keeps blocking with a rule for another origin or for another method only', async () => {
    await addRule({ origins: ['https://elsewhere.example', 'http://127.0.0.1:1'], path: '/api/v2/nas_shares*', methods: ['GET'] });
    await addRule({ origins: [pageOrigin], path: '/api/v2/nas_shares*', methods: ['POST'] });
    expect(await fetchFromPage('/nas_shares')).toMatchObject({ ok: false, error: 'TypeError' });
  });

  it('blocks again once the rule is deleted', async () => {
    const id = await addRule({ origins: [pageOrigin], path: '*', methods: ['GET'] });
    expect(await fetchFromPage('/nas')).toMatchObject({ ok: true, status: 200 });
    expect((await admin('DELETE', `/cors_rules/${id}`)).status).toBe(204);
    // A new context, as a preflight answer may be cached for Access-Control-Max-Age.
    await context.close();
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(`${pageOrigin}/`);
    expect(await fetchFromPage('/nas')).toMatchObject({ ok: false, error: 'TypeError' });
  });
});
