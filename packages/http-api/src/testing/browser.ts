import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { readConfig } from '../server/config.js';
import { startServer, type RunningServer } from '../server/serve.js';

/** Chromium headless as every browser test here runs it: no sandbox, GPU, QUIC or background traffic of its own. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page served from an origin of its own (another port of 127.0.0.1): where a cross-origin caller lives. */
export interface PageOrigin {
  origin: string;
  close(): Promise<void>;
}

/** Serves `html` at every path of a new 127.0.0.1 port. */
export async function servePage(html: string): Promise<PageOrigin> {
  const pages = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  const address = pages.address();
  return {
    origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => new Promise<void>((resolve) => pages.close(() => resolve())),
  };
}

/** A dms server on a data dir of its own, a page on another origin of the same host, and Chromium: where a cross-origin test plays. */
export interface CrossOriginScene {
  server: RunningServer;
  pageOrigin: string;
  browser: Browser;
  stop(): Promise<void>;
}

/** Starts the scene: the server's first admin signs in with `adminPassword`, the page answers `pageHtml`. */
export async function startCrossOriginScene(options: { adminPassword: string; pageHtml: string; executablePath: string }): Promise<CrossOriginScene> {
  const dir = mkdtempSync(join(tmpdir(), 'dms-browser-'));
  const server = await startServer(readConfig({ DMS_DATA_DIR: dir, DMS_PORT: '0', DMS_ADMIN_PASSWORD: options.adminPassword, DMS_LOG_LEVEL: 'silent' }));
  const pages = await servePage(options.pageHtml);
  if (new URL(server.url).origin === pages.origin) throw new Error('the page must be served from another origin than the API');
  const browser = await launchChromium(options.executablePath);
  return {
    server,
    pageOrigin: pages.origin,
    browser,
    async stop() {
      await browser.close();
      await pages.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
