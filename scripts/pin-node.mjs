// `node scripts/pin-node.mjs 24.21.0 [26.12.1 …]`: pins the Node runtimes scripts/runtime.mjs may
// fetch. The first version goes to `.node-version` (the runtime of every command); each version's
// `node-<os>-<cpu>` packages get their registry integrity written to `.node-integrity.json`. Run it
// from a trusted network and review the diff: the file is what later fetches are checked against.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinsFile } from './node-integrity.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const platforms = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'];
const versions = process.argv.slice(2);
if (versions.length === 0 || !versions.every((version) => /^\d+\.\d+\.\d+$/.test(version))) {
  console.error('usage: node scripts/pin-node.mjs VERSION [VERSION…] (the first is the pinned runtime, e.g. 24.21.0 26.12.1)');
  process.exit(2);
}

const pins = {};
for (const version of versions) {
  pins[version] = {};
  for (const platform of platforms) {
    const pkg = `node-${platform}`;
    let integrity = '';
    try {
      integrity = execFileSync('npm', ['view', `${pkg}@${version}`, 'dist.integrity'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      // not published for this platform (or not on this registry): left out, and said below
    }
    if (integrity.startsWith('sha512-')) pins[version][pkg] = integrity;
    else console.error(`[dms] ${pkg}@${version}: not on the registry, not pinned (that platform must bring its own Node ${version})`);
  }
}
writeFileSync(join(root, pinsFile), JSON.stringify(pins, null, 2) + '\n');
writeFileSync(join(root, '.node-version'), `${versions[0]}\n`);
console.error(`[dms] pinned Node ${versions.join(', ')} in .node-version and ${pinsFile}`);
