// `npm run clones` (and `npm test`, as turbo's root task //#clones): jscpd over every package's
// src/ (production and test code), failing on a copy of 10 lines or more between two files that
// scripts/clones-allowed.json does not list with the reason it stays, and on a listed pair that
// is no longer a copy (so the list only holds live exceptions). Decision 144.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// jscpd's ES module build imports `colors/safe` without its extension, which Node refuses: its CommonJS build loads.
const { detectClones } = createRequire(import.meta.url)('jscpd');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const allowedFile = join(root, 'scripts', 'clones-allowed.json');
/** Every package's src/: a new package is checked from its first commit. */
const sources = readdirSync(join(root, 'packages'))
  .map((name) => join(root, 'packages', name, 'src'))
  .filter((dir) => existsSync(dir));

/** The options the check runs jscpd with: `weak` ignores comments, so a copy with reworded comments is still one. */
const cloneOptions = {
  path: sources,
  format: ['typescript', 'tsx'],
  minLines: 10,
  mode: 'weak',
  silent: true,
  reporters: [],
  absolute: true,
  gitignore: true,
};

const pairKey = (a, b) => [a, b].sort().join(' <-> ');

/** The allowed pairs, each with the reason of its group. */
function readAllowed() {
  const { groups } = JSON.parse(readFileSync(allowedFile, 'utf8'));
  const allowed = new Map();
  for (const group of groups) {
    if (!group.why?.trim()) throw new Error(`${relative(root, allowedFile)}: a group without its reason`);
    for (const [a, b] of group.pairs) allowed.set(pairKey(a, b), group.why);
  }
  return allowed;
}

const clones = await detectClones(cloneOptions);
const allowed = readAllowed();
const seen = new Set();
const unexplained = [];
for (const clone of clones) {
  const [a, b] = [clone.duplicationA, clone.duplicationB];
  const [fileA, fileB] = [relative(root, a.sourceId), relative(root, b.sourceId)];
  const key = pairKey(fileA, fileB);
  seen.add(key);
  if (!allowed.has(key)) {
    unexplained.push(`${fileA}:${a.start.line}-${a.end.line} <-> ${fileB}:${b.start.line}-${b.end.line} (${b.end.line - b.start.line + 1} lines)`);
  }
}
const stale = [...allowed.keys()].filter((key) => !seen.has(key));

console.log(`clones: ${clones.length} copies of ${cloneOptions.minLines}+ lines under packages/*/src, ${clones.length - unexplained.length} allowed`);
if (unexplained.length > 0) {
  console.error(
    `\n${unexplained.length} unexplained cop${unexplained.length === 1 ? 'y' : 'ies'}: extract the shared helper or fixture, ` +
      `or list the pair in scripts/clones-allowed.json with why it stays:\n  ${unexplained.join('\n  ')}`,
  );
}
if (stale.length > 0) console.error(`\nscripts/clones-allowed.json lists pairs that are no longer copies (drop them):\n  ${stale.join('\n  ')}`);
if (unexplained.length > 0 || stale.length > 0) process.exit(1);
