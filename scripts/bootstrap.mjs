// Installs workspace dependencies when a fresh clone (or a changed lockfile) needs them,
// so that `npm start` and `npm test` work as the first commands after `git clone`.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const lock = 'package-lock.json';
const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
if (stale) {
  // `npm install`, not `npm ci`: the lock file of this registry setup omits the optional
  // platform packages of turbo for other systems, which `npm ci` refuses as out of sync.
  console.error('[dms] installing dependencies (npm install)...');
  // The Electron binary of @dms/desktop is never fetched here: tests and CI need only its
  // types, and a machine without internet (or a CI run) must install all the same.
  execSync('npm install --no-audit --no-fund', { stdio: 'inherit', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
}
