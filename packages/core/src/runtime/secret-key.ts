import { randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** A key file that is there but holds no usable key: dms refuses to start and says why. */
export class SecretKeyFileError extends Error {
  override readonly name = 'SecretKeyFileError';
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(
      `the secret key file ${file} ${problem}. Every secret dms stored (share passwords, SNMP communities, job payloads) is sealed with it, ` +
        `so dms does not start without it: restore ${file} from your backup of the data dir (or set DMS_SECRET_KEY to the key), then start dms again. ` +
        `Only if no backup exists: move the file away and dms creates a new key; secrets sealed with the lost one cannot be opened and must be entered again`,
    );
  }
}

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
  const existing = readKeyFile(file);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  return writeKeyFile(dataDir, file, key) ? key : readKeyFile(file)!;
}

/** The key in the file; undefined when there is no file; a refusal naming the file when it holds no key. */
function readKeyFile(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SecretKeyFileError(file, `cannot be read (${(error as Error).message})`);
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const hex = text.trim();
  if (hex.length === 0) throw new SecretKeyFileError(file, `is empty (${text.length} bytes): it was not on disk yet when the machine stopped`);
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new SecretKeyFileError(file, `does not hold a key (64 hex digits expected, found ${hex.length} characters)`);
  return Buffer.from(hex, 'hex');
}

/**
 * Writes the new key durably before anything is sealed with it: a temporary file, flushed,
 * linked to its name (atomic, and never over a key another process wrote first), then the
 * directory flushed so the name survives an OS crash too. False when another process's key
 * won the name (that one is used).
 */
function writeKeyFile(dataDir: string, file: string, key: Buffer): boolean {
  const temporary = join(dataDir, `.secret.key.${process.pid}.${randomBytes(4).toString('hex')}`);
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, key.toString('hex') + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    unlinkSync(temporary);
  }
  syncDirectory(dataDir);
  return true;
}

/** fsync of a directory: the names created or removed in it survive an OS crash. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
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
