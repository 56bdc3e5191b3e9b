import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { shownDir, type SmbTarget } from './smb-target.js';

/** smbclient's dialect names as users know them. */
const dialectLabels: Record<string, string> = {
  NT1: 'SMB 1',
  SMB2_02: 'SMB 2.0.2',
  SMB2_10: 'SMB 2.1',
  SMB3_00: 'SMB 3.0',
  SMB3_02: 'SMB 3.0.2',
  SMB3_10: 'SMB 3.1.0',
  SMB3_11: 'SMB 3.1.1',
};

/** The negotiation is logged first: the head of the log is enough, however long the listing. */
const logHeadBytes = 64 * 1024;

/**
 * The dialect smbclient negotiated, read from the debug log it wrote under `logDir` (level 4
 * logs "negotiated dialect[SMB3_11] against server[…]"); undefined when it is not there.
 */
export async function negotiatedDialect(logDir: string): Promise<string | undefined> {
  let head: string;
  try {
    const file = await open(join(logDir, 'log.smbclient'));
    try {
      const buffer = Buffer.alloc(logHeadBytes);
      const { bytesRead } = await file.read(buffer, 0, logHeadBytes, 0);
      head = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await file.close();
    }
  } catch {
    return undefined;
  }
  const dialect = /negotiated dialect\[([A-Z0-9_]+)\]/.exec(head)?.[1];
  return dialect === undefined ? undefined : (dialectLabels[dialect] ?? dialect);
}

function account(target: SmbTarget): string {
  if (target.username === null || target.username === '') return 'the anonymous user';
  return `'${target.domain !== undefined ? `${target.domain}\\${target.username}` : target.username}'`;
}

/**
 * What a passed test reached: "reached share 'x' on 10.0.0.5 as 'bob' (SMB 3.1.1), 12 entries
 * listed". Without the negotiated dialect, the type's range ("SMB 3") stands in.
 */
export function smbTestSummary(target: SmbTarget, dialect: string | undefined, entries: number): string {
  const where = target.dir === '' ? '' : ` in '${shownDir(target)}'`;
  const listed = `${entries} ${entries === 1 ? 'entry' : 'entries'} listed${where}`;
  return `reached share '${target.share}' on ${target.host} as ${account(target)} (${dialect ?? target.protocol.label}), ${listed}`;
}
