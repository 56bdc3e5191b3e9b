import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands alone (docs/decisions/README.md): what its code, tests and documents cite
 * is a file of the repository, an anchor of that file, or a decision record that explains a
 * regression test's label.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const skipped = new Set(['node_modules', 'dist', '.git', '.turbo', '.runtime', 'data', 'release', 'coverage']);
const scanned = /\.(ts|tsx|mjs|js|cjs|md|yml|yaml|json|sh)$|^run$/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return scanned.test(entry.name) && !entry.name.endsWith('results.json') && entry.name !== 'package-lock.json' ? [path] : [];
  });
}

const sources = files(root).map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));
const records = sources.filter((file) => /^docs\/decisions\/\d{3}-[\w-]+\.md$/.test(file.path));
const recordsText = records.map((file) => file.text.replace(/\s+/g, ' ').toLowerCase()).join(' ');
const self = relative(root, fileURLToPath(import.meta.url));

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => slug(match[1]!)));
}

/** `where: what` lines for every match of `pattern` in the scanned files (this file apart). */
function occurrences(pattern: RegExp, among = sources): { where: string; what: string }[] {
  return among
    .filter((file) => file.path !== self)
    .flatMap((file) =>
      file.text.split('\n').flatMap((line, index) => [...line.matchAll(pattern)].map((match) => ({ where: `${file.path}:${index + 1}`, what: match[0] }))),
    );
}

describe('citations', () => {
  it('name no document outside the repository', () => {
    expect(occurrences(/DESIGN(\.md| §|:)|\.\.\/shared\b|api-v2\.md/g)).toEqual([]);
  });

  it('name documents that exist, and anchors those documents have', () => {
    const cited = occurrences(/\bdocs\/[\w./-]+?\.md(#[\w-]+)?/g);
    expect(cited.length).toBeGreaterThan(10);
    const broken = cited.filter(({ what }) => {
      const [path, anchor] = what.split('#') as [string, string | undefined];
      if (!existsSync(join(root, path))) return true;
      return anchor !== undefined && !anchors(readFileSync(join(root, path), 'utf8')).has(anchor);
    });
    expect(broken).toEqual([]);
  });

  it('of a review finding in a test name are explained by a decision record', () => {
    const tests = sources.filter((file) => /\.test\.tsx?$/.test(file.path));
    const labels = occurrences(/\b(finding (\d+\.)?\d+|item \d+\.\d+|issue \d+ item [0-9A-Z]+)\b/g, tests);
    expect(labels.length).toBeGreaterThan(10);
    const unexplained = labels.filter(({ what }) => !recordsText.includes(what.toLowerCase()));
    expect(unexplained).toEqual([]);
  });
});
