import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { requireTools } from '@dms/core/testing';
import { readConfig } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { onlyOn } from '../../src/testing/test-app.js';
import { launchChromium } from '../../src/testing/browser.js';

/**
 * Issue 26 item 5 in a real browser: the reference page says which server "Test Request" sends
 * to (this one), and the prefilled "Update a NAS share" request, sent as it is with the admin's
 * credential, answers 404 and leaves the server's share, its path and its password as they were.
 */

const chromiumPath = '/usr/bin/chromium';
const tools = requireTools([chromiumPath], 'apt-get install -y chromium');
// The page and the server are the same whatever the route suites' storage adapter: SQLite only.
const skip = !tools.ok || onlyOn('sqlite', 'the reference page runs one server of its own, on SQLite');
const password = 'reference-page-password';
const sharePassword = 'Sh4re-reference-untouched';

describe.skipIf(skip)('the API reference page in Chromium', () => {
  let dir: string;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let share: { id: number; name: string; path: string };
  const admin = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: admin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-reference-page-'));
    server = await startServer(readConfig({ DMS_DATA_DIR: dir, DMS_PORT: '0', DMS_ADMIN_PASSWORD: password, DMS_LOG_LEVEL: 'silent' }));
    const nas = await call('POST', '/nas', { name: 'filer', host: '192.0.2.10', type: 'smb_v3' });
    share = (await call('POST', `/nas/${String(nas['id'])}/nas_shares`, { name: 'projects', path: 'projects/2024', password: sharePassword })) as typeof share;
    browser = await launchChromium(chromiumPath);
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.url}/docs`, { timeout: 120_000 });
    await page.getByRole('heading', { name: 'dms: data management service for NAS storage' }).waitFor();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says that Test Request sends to this server, and shows its address', async () => {
    await expect.poll(() => page.getByText('Trying requests from this page').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText(server.url).count()).toBeGreaterThan(0);
  });

  it("sends 'Update a NAS share' as prefilled: 404 on the placeholder id, the share and its password untouched", async () => {
    const summary = 'Update a NAS share (partial)';
    await page.locator('aside, nav').first().getByText(summary, { exact: true }).first().click();
    const heading = page.getByRole('heading', { name: summary, exact: true }).first();
    const section = page
      .locator('section, div')
      .filter({ has: heading })
      .filter({ has: page.getByRole('button', { name: /Test Request/i }) })
      .last();
    await section
      .getByRole('button', { name: /Test Request/i })
      .first()
      .click();
    const client = page.getByRole('dialog').last();
    await expect.poll(() => client.getByText(server.url).count()).toBeGreaterThan(0);
    await expect.poll(() => client.getByText('"projects-2024"').count()).toBeGreaterThan(0);
    // The body sets no password (the auth box's "Password:" is the credential's, not the body's).
    expect(await client.getByText('"password"').count()).toBe(0);
    // The request goes as the page makes it (URL, body), with the admin's credential added on its
    // way: Scalar's credential fields are editors, not inputs a test can fill reliably.
    await page.route(`${server.url}/nas_shares/**`, (route) => route.continue({ headers: { ...route.request().headers(), authorization: admin } }));
    const answered = page.waitForResponse((res) => res.request().method() === 'PUT' && res.url().startsWith(`${server.url}/nas_shares/`));
    await client.getByRole('button', { name: /Send/ }).first().click();
    const res = await answered;
    expect(res.url()).toBe(`${server.url}/nas_shares/0`);
    expect(res.status()).toBe(404);
    expect(await call('GET', `/nas_shares/${share.id}`)).toMatchObject({ name: 'projects', path: 'projects/2024', password: sharePassword });
  }, 180_000);
});
