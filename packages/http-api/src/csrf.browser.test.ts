import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { requireTools } from '@dms/core/testing';
import type { RunningServer } from './server/serve.js';
import { startCrossOriginScene, type CrossOriginScene } from './testing/browser.js';

/**
 * Issue 40 item 2 in a real browser: Chromium holds the admin's Basic credentials for the API
 * (it answers the API's 401 challenge with them, as a browser does once the admin has opened the
 * API and typed them), and a page served from another port of the same host tries to create an
 * admin user with requests that need no CORS preflight. None may create the user.
 */

const chromiumPath = '/usr/bin/chromium';
const tools = requireTools([chromiumPath], 'apt-get install -y chromium');

describe.skipIf(!tools.ok)('cross-site request forgery in Chromium', () => {
  let scene: CrossOriginScene;
  let server: RunningServer;
  let pageOrigin: string;
  let browser: Browser;
  const adminAuth = `Basic ${Buffer.from('admin:csrf-browser-password').toString('base64')}`;

  beforeAll(async () => {
    scene = await startCrossOriginScene({
      adminPassword: 'csrf-browser-password',
      pageHtml: '<!doctype html><title>a page elsewhere</title><p>hello</p>',
      executablePath: tools.paths[chromiumPath]!,
    });
    ({ server, pageOrigin, browser } = scene);
  });
  afterAll(() => scene?.stop());

  const usernames = async () => {
    const res = await fetch(`${server.url}/users?per_page=100`, { headers: { authorization: adminAuth } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { users: Array<{ username: string }> }).users.map((user) => user.username);
  };

  it('issue 40 item 2: a page on another port cannot create an admin with the Basic credentials the browser holds', async () => {
    const context = await browser.newContext({ httpCredentials: { username: 'admin', password: 'csrf-browser-password' } });
    try {
      const page = await context.newPage();
      // The admin opened the API in this browser: the credentials are known to it.
      expect((await page.goto(`${server.url}/users`))?.status()).toBe(200);
      await page.goto(`${pageOrigin}/`);
      const attempts = await page.evaluate(async (url) => {
        const user = (name: string) => JSON.stringify({ username: name, password: 'forged-password-123', admin: true });
        const statuses: Array<number | string> = [];
        const send = async (init: RequestInit) => {
          try {
            const res = await fetch(`${url}/users`, { method: 'POST', credentials: 'include', ...init });
            statuses.push(res.type === 'opaque' ? 'opaque' : res.status);
          } catch (error) {
            statuses.push((error as Error).name);
          }
        };
        // A body without Content-Type (a Blob with no type): a simple request, sent without a preflight.
        await send({ mode: 'no-cors', body: new Blob([user('forged-untyped')]) });
        // text/plain, the type a form or a string body carries: also without a preflight.
        await send({ mode: 'no-cors', body: user('forged-text') });
        // Declared JSON needs a preflight, which no rule answers: the browser never sends the POST.
        await send({ headers: { 'Content-Type': 'application/json' }, body: user('forged-json') });
        return statuses;
      }, server.url);
      expect(attempts).toHaveLength(3);
      expect((await usernames()).filter((name) => name.startsWith('forged'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
