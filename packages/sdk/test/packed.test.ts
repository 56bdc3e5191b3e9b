import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTools } from '@dms/core/testing';
import { chromiumArgs, chromiumPath } from './support/chromium.js';
import { useDms } from './support/fixture.js';
import { packAndInstall, requireFreshBuild, run, tsc, type Installed } from './support/packed-package.js';

/**
 * Issue 26.1: the package as an outside developer gets it. `npm pack`, installed in a scratch
 * project (test/support/packed-package.ts), then loaded the ways a project loads it: require()
 * from CommonJS, import from ESM, TypeScript (strict) under node16 and bundler resolution, and
 * an esbuild bundle in Chromium. Each program calls the real server below and prints what it
 * got; publint and attw check the package's shape, this checks that it runs.
 */

const t = useDms();
let installed: Installed;
let key: string;
const nasNames = ['packed-a', 'packed-b'];

/** What every program prints: the NAS list, and how a 404 came back. */
interface Outcome {
  count: number;
  names: string[];
  missing: { isDmsApiError: boolean; name: string; kind: string; status: number; requestId: boolean };
}
const expected: Outcome = {
  count: 2,
  names: nasNames,
  missing: { isDmsApiError: true, name: 'DmsApiError', kind: 'not_found', status: 404, requestId: true },
};

/** The program's body, in JavaScript that is also strict TypeScript; `sdk` is the module's exports. */
const body = `
  const dms = sdk.createClient({ baseUrl: url, auth: { apiKey: key } });
  const { count, nas } = await dms.nas.list({ sortBy: 'name' });
  const error: unknown = await dms.nas.get('no-such-nas').then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof sdk.DmsApiError)) throw new Error('not a DmsApiError: ' + String(error));
  const missing = { isDmsApiError: sdk.isDmsApiError(error), name: error.name, kind: error.kind, status: error.status, requestId: typeof error.requestId === 'string' };
  return { count, names: nas.map((each) => each.name), missing };
`;
/** The same as JavaScript: type annotations taken out. */
const jsBody = body.replaceAll(': unknown', '');

const env = () => ({ ...process.env, DMS_URL: t.server.url, DMS_API_KEY: key });
async function runNode(file: string): Promise<Outcome> {
  const { stdout } = await run(process.execPath, [file], { env: env() });
  return JSON.parse(stdout) as Outcome;
}

function write(dir: string, files: Record<string, string>): string {
  const path = join(installed.root, dir);
  mkdirSync(path, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text);
  return path;
}

beforeAll(async () => {
  requireFreshBuild();
  installed = await packAndInstall();
  for (const name of nasNames) await t.dms.nas.create({ name, host: 'localhost', type: 'local' });
  ({ key } = await t.admin.apiKeys.create({ name: 'packed', api_key_scopes: [{ controller: 'nas', action: '*' }] }));
}, 120_000);

afterAll(() => {
  if (installed) rmSync(installed.root, { recursive: true, force: true });
});

describe('the packed tarball, installed in a scratch project', () => {
  it('holds dist/ and package.json only, openapi-fetch its one dependency', async () => {
    const { stdout } = await run('tar', ['-tzf', installed.tarball]);
    const files = stdout.trim().split('\n').sort();
    expect(files.every((file) => file === 'package/package.json' || file === 'package/README.md' || file.startsWith('package/dist/'))).toBe(true);
    expect(files).toEqual(expect.arrayContaining(['package/dist/index.cjs', 'package/dist/index.js', 'package/dist/index.d.cts', 'package/dist/index.d.ts']));
    expect(Object.keys(installed.manifest.dependencies)).toEqual(['openapi-fetch']);
  });

  it('runs under require() from a CommonJS project', async () => {
    const dir = write('cjs', {
      'package.json': JSON.stringify({ name: 'cjs-app', private: true, type: 'commonjs' }),
      'main.js': `const sdk = require('@dms/sdk');
const [url, key] = [process.env.DMS_URL, process.env.DMS_API_KEY];
async function main() {${jsBody}}
main().then((outcome) => console.log(JSON.stringify(outcome)), (error) => { console.error(error); process.exit(1); });
`,
    });
    expect(await runNode(join(dir, 'main.js'))).toEqual(expected);
  });

  it('runs under import from an ESM project', async () => {
    const dir = write('esm', {
      'package.json': JSON.stringify({ name: 'esm-app', private: true, type: 'module' }),
      'main.js': `import * as sdk from '@dms/sdk';
const [url, key] = [process.env.DMS_URL, process.env.DMS_API_KEY];
console.log(JSON.stringify(await (async () => {${jsBody}})()));
`,
    });
    expect(await runNode(join(dir, 'main.js'))).toEqual(expected);
  });

  it('issue 45: throws its DmsNetworkError, naming the URL and the cause, when the server is down (ESM and CommonJS)', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const baseUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const program = `
  const dms = sdk.createClient({ baseUrl: process.env.DOWN_URL, auth: { apiKey: 'k' }, retry: { retries: 1, minDelayMs: 10 } });
  const error = await dms.nas.list().then(() => undefined, (caught) => caught);
  return { isDmsNetworkError: error instanceof sdk.DmsNetworkError, name: error.name, method: error.method, url: error.url, refused: String(error.message).includes('ECONNREFUSED') };`;
    const esm = write('down-esm', {
      'package.json': JSON.stringify({ name: 'down-esm', private: true, type: 'module' }),
      'main.js': `import * as sdk from '@dms/sdk';\nconsole.log(JSON.stringify(await (async () => {${program}})()));\n`,
    });
    const cjs = write('down-cjs', {
      'package.json': JSON.stringify({ name: 'down-cjs', private: true, type: 'commonjs' }),
      'main.js': `const sdk = require('@dms/sdk');\n(async () => {${program}})().then((outcome) => console.log(JSON.stringify(outcome)));\n`,
    });
    for (const dir of [esm, cjs]) {
      const { stdout } = await run(process.execPath, [join(dir, 'main.js')], { env: { ...process.env, DOWN_URL: baseUrl } });
      expect(JSON.parse(stdout)).toEqual({ isDmsNetworkError: true, name: 'DmsNetworkError', method: 'GET', url: `${baseUrl}/api/v2/nas`, refused: true });
    }
  });

  const tsProgram = (importLine: string) => `${importLine}
const [url, key] = [process.env['DMS_URL']!, process.env['DMS_API_KEY']!];
async function main(): Promise<{ count: number; names: string[]; missing: object }> {${body}}
main().then((outcome) => console.log(JSON.stringify(outcome)), (error: unknown) => { console.error(error); process.exit(1); });
`;
  const strict = { strict: true, target: 'es2022', lib: ['es2023', 'dom'], types: ['node'], outDir: 'out' };
  // tsc over the package's 400 kB of declarations takes a while on a loaded machine.
  const compileTimeout = 240_000;

  // Here with skipLibCheck off: the package's own declarations are checked too, once.
  it(
    'type-checks strictly and runs in TypeScript with module node16: ESM (.mts) and CommonJS (.cts)',
    async () => {
      const dir = write('ts-node16', {
        'package.json': JSON.stringify({ name: 'ts-node16-app', private: true, type: 'module' }),
        'tsconfig.json': JSON.stringify({
          compilerOptions: { ...strict, module: 'node16', moduleResolution: 'node16', skipLibCheck: false },
          files: ['main.mts', 'main.cts'],
        }),
        'main.mts': tsProgram(`import * as sdk from '@dms/sdk';`),
        // Compiled to require(): the CommonJS types (index.d.cts) and file (index.cjs).
        'main.cts': tsProgram(`import sdk = require('@dms/sdk');`),
      });
      await tsc(dir);
      expect(await runNode(join(dir, 'out/main.mjs'))).toEqual(expected);
      expect(await runNode(join(dir, 'out/main.cjs'))).toEqual(expected);
    },
    compileTimeout,
  );

  it(
    'type-checks strictly and runs in TypeScript with moduleResolution bundler',
    async () => {
      const dir = write('ts-bundler', {
        'package.json': JSON.stringify({ name: 'ts-bundler-app', private: true, type: 'module' }),
        'tsconfig.json': JSON.stringify({
          compilerOptions: { ...strict, module: 'esnext', moduleResolution: 'bundler', skipLibCheck: true },
          files: ['main.ts'],
        }),
        'main.ts': tsProgram(`import * as sdk from '@dms/sdk';`),
      });
      await tsc(dir);
      expect(await runNode(join(dir, 'out/main.js'))).toEqual(expected);
    },
    compileTimeout,
  );

  const tools = requireTools([chromiumPath], 'apt-get install -y chromium');
  // Locally a missing Chromium skips with the reason printed; with CI=true requireTools throws.
  describe.skipIf(!tools.ok)('in a browser', () => {
    let browser: Browser;
    let pages: Server;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    });
    afterAll(async () => {
      await browser?.close();
      pages?.closeAllConnections();
      await new Promise((resolve) => (pages ? pages.close(resolve) : resolve(undefined)));
    });

    it('runs bundled by esbuild for the browser, from a page of another origin (CORS)', async () => {
      const dir = write('browser', {
        'main.js': `import * as sdk from '@dms/sdk';
export async function main(url, key) {${jsBody}}
`,
      });
      // platform browser: a Node-only import in the package would fail the build.
      const bundle = await build({
        absWorkingDir: dir,
        entryPoints: ['main.js'],
        bundle: true,
        format: 'iife',
        globalName: 'sample',
        platform: 'browser',
        target: 'es2022',
        write: false,
        logLevel: 'silent',
      });
      const script = bundle.outputFiles[0]!.text;
      expect(script).not.toContain('require(');
      pages = createServer((request, response) => {
        if (request.url === '/main.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
        response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>sdk</title><script src="/main.js"></script>');
      });
      pages.listen(0, '127.0.0.1');
      await once(pages, 'listening');
      const origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
      // The page's origin may call the NAS paths (a preflight, as the key goes in Authorization).
      await t.admin.corsRules.create({ origins: [origin], path: '/api/v2/nas*', methods: ['GET'] });
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${origin}/`);
      const outcome = await page.evaluate(
        ([url, apiKey]) => (globalThis as unknown as { sample: { main(u: string, k: string): Promise<unknown> } }).sample.main(url, apiKey),
        [t.server.url, key] as const,
      );
      expect(outcome).toEqual(expected);
      expect(problems).toEqual([]);
    });
  });
});
