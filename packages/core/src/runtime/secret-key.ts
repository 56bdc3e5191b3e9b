import { randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The key for secrets at rest: DMS_SECRET_KEY (64 hex digits, base64 of 32 bytes, or a
 * passphrase stretched with scrypt), else `secret.key` in the data dir, created 0600.
 */
export function loadSecretKey(secretKey: string | undefined, dataDir: string): Buffer {
  if (secretKey !== undefined) {
    if (/^[0-9a-fA-F]{64}$/.test(secretKey)) return Buffer.from(secretKey, 'hex');
    const decoded = Buffer.from(secretKey, 'base64');
    if (decoded.length === 32 && /^[A-Za-z0-9+/_-]{43}=?$/.test(secretKey)) return decoded;
    if (secretKey.length < 16) throw new Error('DMS_SECRET_KEY must be 64 hex digits, 32 bytes in base64, or a passphrase of 16+ characters');
    return scryptSync(secretKey, 'dms-secret-key-v1', 32);
  }
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  return key;
}

/**
 * The data dir holds the secret key and the database: dms creates it 0700. One that exists
 * keeps its mode, with a warning when others may enter it: the operator may have opened it
 * on purpose (local share roots live under it by default, backups read it), and the files
 * with secrets in it are 0600 of their own accord, so tightening it could only break things.
 */
export function preparePrivateDataDir(dataDir: string, warn: (message: string) => void): void {
  const stats = statSync(dataDir, { throwIfNoEntry: false });
  if (!stats) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    return;
  }
  const mode = stats.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    warn(`the data dir ${dataDir} is open to other users (mode ${mode.toString(8)}); chmod 700 it unless they need it`);
  }
}
