import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SmbTarget } from './smb-target.js';

export interface SmbclientFiles {
  dir: string;
  /** `-A`: user name and domain (and an empty password), never on a command line. */
  authFile: string;
  /** `-s`: our own smb.conf, so the host's /etc/samba settings and state dirs play no part. */
  configFile: string;
}

/**
 * Runs `fn` with a private directory (mkdtemp: 0700) holding a 0600 credentials file and a
 * client smb.conf whose state dirs point inside it (smbclient writes gencache there, and a
 * service user may not write /var/lib/samba). Everything is removed afterwards.
 *
 * A non-empty password is not written here but handed over a pipe (see runSmbclient):
 * smbclient's auth-file parser drops leading blanks of a value, so "  pw" would fail.
 */
export async function withSmbclientFiles<T>(target: SmbTarget, fn: (files: SmbclientFiles) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'dms-smbclient-'));
  try {
    const authFile = join(dir, 'auth');
    const configFile = join(dir, 'smb.conf');
    const auth = [`username = ${target.username ?? ''}`];
    if (!target.password) auth.push('password = ');
    if (target.domain !== undefined) auth.push(`domain = ${target.domain}`);
    await writeFile(authFile, `${auth.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
    const config = [
      '[global]',
      ...['lock directory', 'state directory', 'cache directory', 'private dir', 'ncalrpc dir', 'pid directory'].map((key) => `  ${key} = ${dir}`),
      // NTLMv2 with the given credentials; Kerberos would need a realm and a ticket we lack.
      '  client use kerberos = off',
      '  client ntlmv2 auth = yes',
      '  unix charset = UTF-8',
      '  log level = 0',
    ];
    await writeFile(configFile, `${config.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
    return await fn({ dir, authFile, configFile });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
