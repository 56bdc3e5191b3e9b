import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const map = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

/** Every `packages/…`, `docs/…` or root file the map names in backticks. */
function namedPaths(text: string): string[] {
  const named = [...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);
  return [...new Set(named.filter((name) => /^(packages|docs|scripts)\/[\w./-]+$/.test(name) || /^\.?[\w.-]+\.(md|js|json)$/.test(name)))];
}

describe('docs/architecture.md', () => {
  it('names only paths that exist, so the map cannot drift from the code', () => {
    const paths = namedPaths(map);
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });
});
