import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRenderer } from './build-renderer.js';

// The renderer takes values from @dms/core's pure modules only. A value imported from a module
// that also builds zod schemas (domain/job.ts, domain/audit-event.ts …) brings the whole of zod
// into the bundle, 100 KB of it, though the lint rule on imports is satisfied: the bundle says so.

describe('the renderer bundle', () => {
  let outDir = '';
  let script = '';
  /** The script index.html loads, apart from the chunks it imports later. */
  let entry = '';
  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'dms-renderer-bundle-'));
    await buildRenderer(outDir);
    const assets = join(outDir, 'assets');
    script = readdirSync(assets)
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(join(assets, name), 'utf8'))
      .join('\n');
    const entryName = /<script type="module"[^>]* src="\.\/assets\/([^"]+\.js)"/.exec(readFileSync(join(outDir, 'index.html'), 'utf8'))?.[1] ?? '';
    entry = readFileSync(join(assets, entryName), 'utf8');
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('holds the console', () => {
    expect(script).toContain('Audit log');
  });

  // Chart.js (166 KB of the bundle) comes with the dashboard's chart, after the first screen shows.
  it('loads Chart.js in a chunk of its own, not with the console', () => {
    expect(script).toContain('setActiveElements');
    expect(entry).toContain('Share growth');
    expect(entry).not.toContain('setActiveElements');
  });

  it('holds no zod', () => {
    expect(script.match(/\$?Zod[A-Z][A-Za-z]*/g) ?? []).toEqual([]);
  });
});
