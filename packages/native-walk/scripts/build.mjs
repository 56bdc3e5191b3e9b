// Builds the walker with node-gyp against the Node headers npm points at (npm_config_nodedir,
// set by scripts/with-runtime.mjs). Without a C toolchain (or on Windows) it says so in one
// line and succeeds: `npm install` and `npm start` must work without a compiler, the scan then
// uses its JavaScript walkers. On CI (CI=true) a failed build fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const output = join(here, 'build/Release/dms_native_walk.node');
const ci = process.env.CI === 'true' || process.env.CI === '1';

function skip(reason) {
  console.error(`[dms] @dms/native-walk not built: ${reason}; local scans use the JavaScript walkers.`);
  process.exit(ci ? 1 : 0);
}

if (process.platform === 'win32') skip('no native walker on Windows');
const has = (command) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
const missing = ['python3', 'make', process.env.CC ?? 'cc'].filter((command) => !has(command));
if (missing.length > 0) skip(`missing ${missing.join(', ')}`);

// Up to date: nothing to do (turbo runs this on every build).
const newestSource = Math.max(
  statSync(join(here, 'binding.gyp')).mtimeMs,
  ...readdirSync(join(here, 'src')).map((name) => statSync(join(here, 'src', name)).mtimeMs),
);
if (existsSync(output) && statSync(output).mtimeMs >= newestSource) process.exit(0);

// npm names its own node-gyp to install scripts; run by turbo, the workspace's.
let gyp = process.env.npm_config_node_gyp;
if (gyp === undefined || !existsSync(gyp)) {
  try {
    gyp = createRequire(import.meta.url).resolve('node-gyp/bin/node-gyp.js');
  } catch {
    skip('node-gyp is not installed');
  }
}
try {
  execFileSync(process.execPath, [gyp, 'rebuild', '--release', '--loglevel=error'], { cwd: here, stdio: ['ignore', 'ignore', 'inherit'] });
} catch {
  skip('node-gyp failed (see above)');
}
