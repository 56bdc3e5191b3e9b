// Makes a clone ready to run: the Node runtime (scripts/runtime.mjs), then the workspace
// dependencies installed by that runtime, so that `npm start` and `npm test` work as the first
// commands after `git clone` on any machine with npm, whatever its own node.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureRuntime, link, linkCurrent, root, runtimeEnv } from './runtime.mjs';

const runtime = ensureRuntime();
// The Electron binary of @dms/desktop is never fetched here: tests and CI need only its
// types, and a machine without internet (or a CI run) must install all the same.
const env = { ...runtimeEnv(runtime), ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };
const npm = (...args) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: 'inherit', env });
const runtimeVersion = () => execFileSync('node', ['-p', 'process.versions.node'], { env, encoding: 'utf8' }).trim();

const marker = join(root, 'node_modules/.package-lock.json');
const lock = join(root, 'package-lock.json');
// The node the native addons (better-sqlite3) were built for; none recorded: the system node.
// better-sqlite3 13 and the other addons are Node-API prebuilds (one binary for every Node line),
// so a rebuild is cheap; it stays for an addon built from source where no prebuild fits.
const builtFor = join(root, 'node_modules/.dms-node-version');
const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
// Who built node_modules' addons: recorded, else the system node when node_modules is there, else nobody yet.
const builtWith = existsSync(builtFor) ? readFileSync(builtFor, 'utf8').trim() : existsSync(marker) ? process.versions.node : undefined;
const version = runtimeVersion();
if (stale) {
  // `npm install`, not `npm ci`: the lock file of this registry setup omits the optional
  // platform packages of turbo for other systems, which `npm ci` refuses as out of sync.
  console.error('[dms] installing dependencies (npm install)...');
  npm('install');
}
// npm install builds the addons of packages it adds, not of those already there.
if (builtWith !== undefined && builtWith !== version) {
  console.error(`[dms] native addons were built for Node ${builtWith}, rebuilding them for Node ${version} (npm rebuild)...`);
  npm('rebuild');
}
if (builtWith !== version) writeFileSync(builtFor, version);

linkCurrent(runtime);
// `npx dms` runs node_modules/.bin/dms with the node on PATH; when that node is too old, the link
// goes through scripts/dms instead, which runs the CLI on .runtime/current.
link(join(root, 'node_modules/.bin/dms'), runtime.system ? '../@dms/cli/bin/dms.js' : '../../scripts/dms');
