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
  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'dms-renderer-bundle-'));
    await buildRenderer(outDir);
    const assets = join(outDir, 'assets');
    script = readdirSync(assets)
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(join(assets, name), 'utf8'))
      .join('\n');
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('holds the console', () => {
    expect(script).toContain('Audit log');
  });

  it('holds no zod', () => {
    expect(script.match(/\$?Zod[A-Z][A-Za-z]*/g) ?? []).toEqual([]);
  });
});
