import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { DesktopSession } from '../../src/main/session.js';
import { serveConsole } from '../../src/test-host/serve-console.js';
import type { OpenExternal } from '../../src/main/oidc-loopback.js';
import { buildRenderer } from '../build-renderer.js';
import { adminPassword, openTestDesktop, type TestDesktop } from '../test-desktop.js';

export const chromiumPath = '/usr/bin/chromium';
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const resultsDir = fileURLToPath(new URL('../../test-results/', import.meta.url));

/** Why the browser tests cannot run here, or undefined; on CI a missing Chromium is a failure, not a skip. */
export function chromiumMissing(suite: string): string | undefined {
  if (existsSync(chromiumPath)) return undefined;
  const reason = `no Chromium at ${chromiumPath}`;
  if (process.env['CI'] === 'true') throw new Error(`[desktop] ${suite} needs Chromium on CI: ${reason}`);
  console.log(`[desktop] skipping ${suite}: ${reason}`);
  return reason;
}

export interface ConsoleHarness {
  desktop: TestDesktop;
  page: Page;
  url: string;
  /** Content-Security-Policy violations the page reported (expected: none). */
  cspViolations: string[];
  signIn(): Promise<void>;
  /** Opens a screen through the menu, as a user would, and waits for its heading. */
  open(title: string): Promise<void>;
  /** Writes `<name>-light.png` and `<name>-dark.png` and runs axe-core on both; returns serious or critical violations. */
  capture(name: string): Promise<Array<{ id: string; impact: string | null; nodes: number; scheme: string }>>;
  close(): Promise<void>;
}

/** The renderer built, served over tRPC's HTTP link by the test host on a fresh desktop service, and a Chromium page. */
export async function openConsole(options: { openExternal?: OpenExternal } = {}): Promise<ConsoleHarness> {
  const outDir = mkdtempSync(join(tmpdir(), 'dms-renderer-'));
  await buildRenderer(outDir);
  // With the app's embedded REST server (off until enabled on the Settings screen).
  const desktop = await openTestDesktop({ restServer: true });
  const host = await serveConsole(outDir, {
    core: desktop.dms.core,
    snmpAgent: () => desktop.dms.snmpAgent(),
    session: new DesktopSession(),
    restServer: desktop.restServer,
    localRoots: [desktop.root],
    ...(options.openExternal ? { openExternal: options.openExternal } : {}),
  });
  const { chromium } = await import('playwright-core');
  const browser: Browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  mkdirSync(resultsDir, { recursive: true });
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

  return {
    desktop,
    page,
    url: host.url,
    cspViolations,
    async signIn() {
      await page.goto(host.url);
      await page.getByLabel('User name').fill('admin');
      await page.getByLabel('Password').fill(adminPassword);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Console' }).waitFor();
    },
    async open(title) {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: title, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
    },
    async capture(name) {
      const found: Array<{ id: string; impact: string | null; nodes: number; scheme: string }> = [];
      // Evaluated through the DevTools protocol: the page's CSP rightly refuses an injected script tag.
      if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: join(resultsDir, `${name}-${scheme}.png`), fullPage: true });
        const violations = await page.evaluate(async () => {
          const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: unknown[] }> }> } })
            .axe;
          const result = await axe.run();
          return result.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.length }));
        });
        found.push(...violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ ...v, scheme })));
      }
      await page.emulateMedia({ colorScheme: null });
      return found;
    },
    async close() {
      await browser.close();
      await host.close();
      await desktop.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * For the describe it is called in: a console opened and signed in as admin before its tests, closed
 * after them. The harness returned reads the open one, so the tests use it as they would openConsole's;
 * read before beforeAll has run (in the describe's body itself), it throws instead of handing out undefined.
 */
export function signedInConsole(): ConsoleHarness {
  let opened: ConsoleHarness | undefined;
  beforeAll(async () => {
    opened = await openConsole();
    await opened.signIn();
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
  });
  const current = (): ConsoleHarness => {
    if (!opened) throw new Error('the console opens in beforeAll: read it inside a test or hook');
    return opened;
  };
  return {
    get desktop() {
      return current().desktop;
    },
    get page() {
      return current().page;
    },
    get url() {
      return current().url;
    },
    get cspViolations() {
      return current().cspViolations;
    },
    signIn: () => current().signIn(),
    open: (title) => current().open(title),
    capture: (name) => current().capture(name),
    close: () => current().close(),
  };
}
