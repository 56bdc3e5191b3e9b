import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minimatch } from 'minimatch';
import { parse } from 'yaml';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from './build-renderer.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

/** The part of electron-builder's configuration these checks rely on. */
const builderConfig = z.object({
  appId: z.string(),
  productName: z.string(),
  directories: z.object({ output: z.string() }),
  files: z.array(z.string()),
  extraResources: z.array(z.string()).optional(),
  asarUnpack: z.array(z.string()),
  npmRebuild: z.boolean(),
  linux: z.object({ target: z.array(z.string()) }),
  win: z.object({ target: z.array(z.string()) }),
  mac: z.object({ target: z.array(z.string()) }),
});
const config = builderConfig.parse(parse(readFileSync(join(packageDir, 'electron-builder.yml'), 'utf8')));
const manifest = z
  .object({
    main: z.string(),
    productName: z.string(),
    scripts: z.record(z.string(), z.string()),
    dependencies: z.record(z.string(), z.string()),
    devDependencies: z.record(z.string(), z.string()),
  })
  .parse(JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')));

const includes = config.files.filter((pattern) => !pattern.startsWith('!'));
const excludes = config.files.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1));
/** Whether electron-builder would put a file (path relative to the package) into the app. */
const packed = (path: string) => includes.some((pattern) => minimatch(path, pattern)) && !excludes.some((pattern) => minimatch(path, pattern));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

describe('electron-builder configuration', () => {
  it('names the app and targets AppImage and deb, NSIS, and dmg', () => {
    expect(config).toMatchObject({ appId: expect.stringMatching(/^[a-z]+(\.[a-z]+)+$/), productName: 'dms' });
    expect(config.linux.target.sort()).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
  });

  it('packs only the build output: every files or extraResources pattern points into dist/', () => {
    for (const pattern of [...includes, ...(config.extraResources ?? [])].filter((p) => p !== 'package.json')) {
      expect(pattern, pattern).toMatch(/^dist\/(main|preload|renderer)\//);
    }
    // The installers are written beside the build, never packed into the next one.
    expect(config.directories.output.startsWith('dist/release')).toBe(true);
    expect(packed(`${config.directories.output}/dms.AppImage`)).toBe(false);
    expect(packed('src/main/main.ts')).toBe(false);
    expect(packed('dist/main/main.js.map')).toBe(false);
  });

  it('unpacks better-sqlite3’s prebuilt Node-API module from the asar, with nothing to rebuild for Electron', () => {
    const native = `node_modules/better-sqlite3/prebuilds/${process.platform}-${process.arch}.node`;
    expect(existsSync(join(require.resolve('better-sqlite3/package.json'), '..', 'prebuilds', `${process.platform}-${process.arch}.node`))).toBe(true);
    expect(config.asarUnpack.some((pattern) => minimatch(native, pattern))).toBe(true);
    expect(config.npmRebuild).toBe(false);
  });

  it('finds what the app needs at run time in dependencies, and Electron and the builder in devDependencies', () => {
    for (const name of ['@dms/core', '@dms/http-api', '@hono/node-server', 'react', 'trpc-electron']) expect(manifest.dependencies, name).toHaveProperty(name);
    // electron-builder reads Electron's version from devDependencies and refuses it in dependencies.
    // An exact version: electron-builder downloads that release and cannot resolve a range hoisted to the root.
    expect(manifest.devDependencies['electron']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.devDependencies).toHaveProperty('electron-builder');
    expect(manifest.dependencies).not.toHaveProperty('electron');
    // The chart's libraries live in the renderer bundle only (dist/renderer): packed as node_modules
    // too, chart.js would add 6 MB to app.asar that nothing loads.
    for (const name of ['chart.js', 'react-chartjs-2']) {
      expect(manifest.devDependencies, name).toHaveProperty(name);
      expect(manifest.dependencies, name).not.toHaveProperty(name);
    }
    expect(manifest.scripts['package']).toMatch(/electron-builder --config electron-builder\.yml$/);
    // `electron .` runs the main entry under the package's productName, so development and the
    // packaged app share one user-data dir (…/dms).
    expect(manifest.scripts['dev']).toMatch(/&& electron \.$/);
    expect(manifest.productName).toBe(config.productName);
  });
});

describe('the build that electron-builder packs', () => {
  // Built here, as `npm run build` does, into a temp dir: never a stale dist/.
  const outDir = mkdtempSync(join(tmpdir(), 'dms-package-'));
  const dist = join(outDir, 'dist');
  let built: string[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(packageDir, 'tsconfig.build.json'), '--outDir', dist], {
      cwd: packageDir,
      stdio: 'pipe',
    });
    await buildRenderer(join(dist, 'renderer'));
    built = filesUnder(outDir);
  }, 180_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('holds a file for every files pattern', () => {
    for (const pattern of includes.filter((p) => p !== 'package.json')) {
      expect(
        built.some((path) => minimatch(path, pattern)),
        pattern,
      ).toBe(true);
    }
  });

  it('packs the main entry of package.json, and the preload and renderer it loads', () => {
    expect(built).toContain(manifest.main);
    expect(packed(manifest.main)).toBe(true);
    // main.ts loads ../preload/preload.cjs and ../renderer/ beside its own folder.
    for (const path of ['dist/preload/preload.cjs', 'dist/renderer/index.html']) {
      expect(built, path).toContain(path);
      expect(packed(path), path).toBe(true);
    }
    expect(built.filter((path) => path.startsWith('dist/renderer/assets/') && packed(path)).length).toBeGreaterThan(0);
    // The test host is built too, but is no part of the app.
    expect(built.filter((path) => path.startsWith('dist/test-host/') && packed(path))).toEqual([]);
  });
});
