// `npm run bench` for the desktop console: how soon the console is usable, and what the renderer
// bundle weighs. Runs on dist/ (the bench task depends on build), in headless Chromium over the
// test host's HTTP link (the app's IPC link needs the Electron binary).
//
// desktop.first_screen_ms is "renderer loaded to Overview with data": from the navigation's start
// (the page's time origin), through the sign-in form, until the Overview shows its counts and
// its recent jobs, on a service seeded with a NAS, a few shares and a finished job. The moment is
// taken inside the page by a MutationObserver, so the harness's polling adds nothing to it.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { openDms } from '@dms/core/runtime';
import { chromium } from 'playwright-core';
import { DesktopSession } from '../dist/main/session.js';
import { createAppCaller } from '../dist/main/router/index.js';
import { serveConsole } from '../dist/test-host/serve-console.js';

const runs = 7;
const rendererDir = fileURLToPath(new URL('../dist/renderer/', import.meta.url));
const assetsDir = join(rendererDir, 'assets');
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

/** A NAS, three shares on it and a finished test job, through the router as the console makes them. */
async function seed(context) {
  const caller = createAppCaller(context);
  await caller.auth.signIn({ username: 'admin', password });
  await caller.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
  const shares = [];
  for (const name of ['projects', 'media', 'scratch']) shares.push(await caller.shares.create({ nas: 'filer', body: { name, path: 'projects' } }));
  const started = await caller.shares.test({ share: shares[0].id });
  for await (const job of await caller.jobs.progress({ jobId: started.job_id, share: shares[0].id, kind: 'share_test' })) {
    if (job.status === 'failed') throw new Error(`the seeded test failed: ${job.message}`);
  }
}

// Installed before any page script: records when the sign-in form is first shown, and when the
// Overview first shows the seeded counts and a recent job by its share's name, in ms since the
// navigation started.
const overviewWatch = `(() => {
  const rendered = () => {
    const counts = document.querySelector('ul[aria-label="Counts"]');
    const jobs = document.querySelector('table[aria-labelledby="jobs-heading"] tbody');
    return counts !== null && /3\\s*shares/.test(counts.textContent) && jobs !== null && jobs.textContent.includes('projects on filer');
  };
  const observer = new MutationObserver(() => {
    if (globalThis.signInFormAt === undefined && document.querySelector('main.sign-in button[type="submit"]') !== null) {
      globalThis.signInFormAt = performance.now();
    }
    if (globalThis.overviewWithDataAt === undefined && rendered()) {
      globalThis.overviewWithDataAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
})()`;

const dataDir = mkdtempSync(join(tmpdir(), 'dms-desktop-bench-'));
const root = join(dataDir, 'shares');
mkdirSync(join(root, 'projects', 'sub'), { recursive: true });
writeFileSync(join(root, 'projects', 'a.txt'), 'abc');
writeFileSync(join(root, 'projects', 'sub', 'b.txt'), 'defgh');
const password = 'bench password, long enough';
const dms = await openDms({ role: 'service', dataDir, adminPassword: password, localRoots: [root], trapSender: { send: async () => {}, close() {} } });
const context = { core: dms.core, snmpAgent: () => dms.snmpAgent(), session: new DesktopSession() };
const host = await serveConsole(rendererDir, context);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
try {
  await seed({ ...context, session: new DesktopSession() });
  const firstScreen = [];
  const signInForm = [];
  const signedIn = [];
  for (let run = 0; run < runs; run++) {
    const browserContext = await browser.newContext();
    const page = await browserContext.newPage();
    await page.addInitScript(overviewWatch);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    signInForm.push(await page.evaluate(() => globalThis.signInFormAt));
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill(password);
    const submitted = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForFunction(() => globalThis.overviewWithDataAt !== undefined);
    const shown = await page.evaluate(() => globalThis.overviewWithDataAt);
    firstScreen.push(shown);
    signedIn.push(shown - submitted);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await browserContext.close();
  }
  const bytes = bundleBytes();
  const rows = [
    [
      'desktop.first_screen_ms',
      median(firstScreen).toFixed(1),
      'ms',
      `median of ${runs}, navigation start through sign-in to the Overview with its counts and recent jobs (seeded: 1 NAS, 3 shares, 1 finished job)`,
    ],
    ['desktop.sign_in_form_ms', median(signInForm).toFixed(1), 'ms', `median of ${runs}, navigation start to the sign-in form`],
    ['desktop.signed_in_screen_ms', median(signedIn).toFixed(1), 'ms', 'sign-in click to the Overview with data (includes argon2id)'],
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
