import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronBinary, noElectronBinaryReason } from './electron-binary.js';

const binary = electronBinary();
const builtMain = new URL('../dist/main/main.js', import.meta.url).pathname;
const skipReason = !binary ? noElectronBinaryReason : !existsSync(builtMain) ? 'no build of the main process (run npm run build)' : undefined;
if (skipReason) console.log(`[desktop] skipping the Electron app test: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('the Electron app', () => {
  it('opens a window whose page has no Node and only the electronTRPC bridge', async () => {
    const { _electron } = await import('playwright-core');
    const userData = mkdtempSync(join(tmpdir(), 'dms-electron-'));
    const app = await _electron.launch({ executablePath: binary!, args: [builtMain, `--user-data-dir=${userData}`] });
    try {
      const page = await app.firstWindow();
      expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
      expect(await page.evaluate(() => Object.keys((globalThis as { electronTRPC?: object }).electronTRPC ?? {}).sort())).toEqual(['onMessage', 'sendMessage']);
    } finally {
      await app.close();
      rmSync(userData, { recursive: true, force: true });
    }
  });
});
