// `npm run bench` for the desktop console: how soon the first screen is usable, and what the
// renderer bundle weighs. Runs on dist/ (the bench task depends on build), in headless Chromium
// over the test host's HTTP link (the app's IPC link needs the Electron binary).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { openDms } from '@dms/core';
import { chromium } from 'playwright-core';
import { DesktopSession } from '../dist/main/session.js';
import { serveConsole } from '../dist/test-host/serve-console.js';

const runs = 7;
const rendererDir = fileURLToPath(new URL('../dist/renderer/', import.meta.url));
const assetsDir = join(rendererDir, 'assets');
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function bundleBytes() {
  let raw = 0;
  let gzip = 0;
  for (const name of readdirSync(assetsDir)) {
    const file = join(assetsDir, name);
    raw += statSync(file).size;
    gzip += gzipSync(readFileSync(file)).length;
  }
  return { raw, gzip };
}

const dataDir = mkdtempSync(join(tmpdir(), 'dms-desktop-bench-'));
const password = 'bench password, long enough';
const dms = await openDms({ role: 'service', dataDir, adminPassword: password, trapSender: { send: async () => {}, close() {} } });
const host = await serveConsole(rendererDir, { core: dms.core, snmpAgent: () => dms.snmpAgent(), session: new DesktopSession() });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
try {
  const firstScreen = [];
  const signedIn = [];
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    firstScreen.push(performance.now() - start);
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill(password);
    const submitted = performance.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('list', { name: 'Counts' }).waitFor();
    signedIn.push(performance.now() - submitted);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await context.close();
  }
  const bytes = bundleBytes();
  const rows = [
    ['desktop.first_screen_ms', median(firstScreen).toFixed(1), 'ms', `median of ${runs}, navigation to sign-in form`],
    ['desktop.signed_in_screen_ms', median(signedIn).toFixed(1), 'ms', 'sign-in click to overview (includes argon2id)'],
    ['desktop.bundle_bytes', String(bytes.raw), 'B', 'renderer assets'],
    ['desktop.bundle_gzip_bytes', String(bytes.gzip), 'B', 'renderer assets, gzip'],
  ];
  for (const row of rows) console.log(row.join('\t'));
} finally {
  await browser.close();
  await host.close();
  await dms.close();
  rmSync(dataDir, { recursive: true, force: true });
}
