import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DesktopSession } from '../src/main/session.js';
import { serveConsole } from '../src/test-host/serve-console.js';
import { adminPassword, openTestDesktop, type TestDesktop } from './test-desktop.js';

const chromiumPath = '/usr/bin/chromium';
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const resultsDir = fileURLToPath(new URL('../test-results/', import.meta.url));

const skipReason = existsSync(chromiumPath) ? undefined : `no Chromium at ${chromiumPath}`;
if (skipReason) console.log(`[desktop] skipping the console e2e test: ${skipReason}`);

/** Builds the renderer as `npm run build` does, into a temp dir: tests never depend on a stale dist/. */
async function buildRenderer(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

describe.skipIf(skipReason !== undefined)('console in headless Chromium (HTTP link)', () => {
  let t: TestDesktop;
  let outDir: string;
  let host: Awaited<ReturnType<typeof serveConsole>>;
  let browser: Browser;
  let page: Page;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'dms-renderer-'));
    await buildRenderer(outDir);
    t = await openTestDesktop();
    const setup = t.caller();
    await setup.auth.signIn({ username: 'admin', password: adminPassword });
    await setup.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
    host = await serveConsole(outDir, { core: t.dms.core, snmpAgent: () => t.dms.snmpAgent(), session: new DesktopSession() });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    mkdirSync(resultsDir, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await t?.close();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('signs in, lists NAS, shows a field error, creates a share and follows its test to completed', async () => {
    await page.goto(host.url);
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill(adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'filer', exact: true }).count()).toBeGreaterThan(0);

    await page.getByLabel('Share name').fill('projects');
    await page.getByLabel('Path').fill('projects');
    await page.getByLabel('Mount options').fill('ro, vers=3');
    await page.getByRole('button', { name: 'Create share' }).click();
    const optionsError = page.locator('#share-options-error');
    await optionsError.waitFor();
    expect(await optionsError.textContent()).toMatch(/^options /);
    expect(await page.getByLabel('Mount options').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Mount options').fill('');
    await page.getByRole('button', { name: 'Create share' }).click();
    await page.getByRole('button', { name: 'Test share projects' }).click();
    await page.locator('.job[data-status="completed"]').waitFor({ timeout: 10_000 });
    expect(await page.locator('.job').textContent()).toContain('completed (2/2)');

    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: join(resultsDir, `console-${colorScheme}.png`), fullPage: true });
    }
    expect(cspViolations).toEqual([]);
  });

  it('has no serious or critical axe-core violations, in light and dark', async () => {
    // Evaluated through the DevTools protocol: the page's CSP rightly refuses an injected script tag.
    const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(axeSource);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const violations = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: unknown[] }> }> } }).axe;
        const result = await axe.run();
        return result.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.length }));
      });
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), colorScheme).toEqual([]);
    }
  });
});
