import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const map = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
const coreSrc = join(root, 'packages', 'core', 'src');

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

/** The core's layers, bottom up, as the map's table lists them: each row's homes below packages/core/src. */
function layers(text: string): string[][] {
  const table = text.slice(text.indexOf('| layer (bottom up) | home |'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
  return rows.map((row) => [...row.slice(row.lastIndexOf(' | ')).matchAll(/`packages\/core\/src\/([^`]+)`/g)].map((match) => match[1]!.replace(/\.ts$/, '')));
}

/** Every production file of the core (tests aside), relative to its src/. */
function coreFiles(dir = coreSrc, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) return coreFiles(join(dir, entry.name), `${path}/`);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The module specifiers a file imports or re-exports, static or dynamic. */
const importsOf = (source: string) => [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);

/** Packages that make a host or a transport: the core loads none of them (the C walker is a library, not a host). */
const hostPackages = /^(@dms\/(?!native-walk$)|hono$|@hono\/|@trpc\/|electron$|react(-dom)?$|commander$)/;

describe('the layer rule docs/architecture.md states', () => {
  const homes = layers(map);
  /** The layer of a file: the row with the longest home it lies in. */
  const layerOf = (file: string) => {
    let best: { layer: number; length: number } | undefined;
    for (const [layer, row] of homes.entries()) {
      for (const home of row) {
        const within = file === `${home}.ts` || file.startsWith(`${home}/`);
        if (within && home.length > (best?.length ?? -1)) best = { layer, length: home.length };
      }
    }
    return best?.layer;
  };
  const files = coreFiles();

  it('homes every file of the core in a row of the table (front doors aside)', () => {
    expect(homes.length).toBeGreaterThan(10);
    expect(files.filter((file) => !file.endsWith('index.ts') && layerOf(file) === undefined)).toEqual([]);
  });

  it('has no file import from a layer above its own', () => {
    const climbing: string[] = [];
    for (const file of files.filter((name) => !name.endsWith('index.ts'))) {
      const own = layerOf(file)!;
      for (const specifier of importsOf(readFileSync(join(coreSrc, file), 'utf8')).filter((name) => name.startsWith('.'))) {
        const target = relative(coreSrc, resolve(join(coreSrc, dirname(file)), specifier)).replace(/\.js$/, '.ts');
        const layer = layerOf(target);
        if (layer !== undefined && layer > own) climbing.push(`${file} -> ${target}`);
      }
    }
    expect(climbing).toEqual([]);
  });

  it('has the core import no host and no transport', () => {
    const hosts = files.flatMap((file) =>
      importsOf(readFileSync(join(coreSrc, file), 'utf8'))
        .filter((name) => hostPackages.test(name))
        .map((name) => `${file} -> ${name}`),
    );
    expect(hosts).toEqual([]);
  });
});
