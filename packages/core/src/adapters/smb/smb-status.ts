import type { DriverStepName } from '../../ports/share-driver.js';
import { formatMs } from '../share-drivers/net-probes.js';
import { shownDir, type SmbTarget } from './smb-target.js';

export type SmbStep = Extract<DriverStepName, 'negotiate_protocol' | 'authenticate' | 'open_path' | 'list'>;

export interface SmbFailure {
  step: SmbStep;
  message: string;
  status: string;
  /** Told after a listing's entries: `ls` then asks for the share's free space, and that failed. */
  afterListing?: true;
}

/**
 * Statuses that mean the server dropped the session: its smbd process died (Samba 4.17 at
 * times panics storing share modes while several sessions open files at once), or a reset.
 */
export const lostSessionStatuses = new Set(['NT_STATUS_CONNECTION_DISCONNECTED', 'NT_STATUS_CONNECTION_RESET']);

/** Statuses on a listing that mean "nothing there (any more)", not a failure. */
export const vanishedStatuses = new Set([
  'NT_STATUS_OBJECT_NAME_NOT_FOUND',
  'NT_STATUS_OBJECT_PATH_NOT_FOUND',
  'NT_STATUS_NO_SUCH_FILE',
  'NT_STATUS_NOT_A_DIRECTORY',
]);

function who(target: SmbTarget): string {
  if (target.username === null || target.username === '') return 'the anonymous user';
  const user = target.domain !== undefined ? `${target.domain}\\${target.username}` : target.username;
  return `user '${user}'`;
}

function negotiateMessage(status: string, target: SmbTarget, timeoutMs: number): string {
  switch (status) {
    case 'NT_STATUS_CONNECTION_REFUSED':
      return `connection refused by host '${target.host}' on port ${target.port}`;
    case 'NT_STATUS_IO_TIMEOUT':
      return `no answer from host '${target.host}' on port ${target.port} within ${formatMs(timeoutMs)}`;
    case 'NT_STATUS_HOST_UNREACHABLE':
    case 'NT_STATUS_NETWORK_UNREACHABLE':
      return `host '${target.host}' is unreachable`;
    case 'NT_STATUS_CONNECTION_RESET':
    case 'NT_STATUS_CONNECTION_DISCONNECTED':
    case 'NT_STATUS_END_OF_FILE':
      return `host '${target.host}' closed the connection on port ${target.port} (is it an SMB server?)`;
    default:
      return `host '${target.host}' does not speak ${target.protocol.label} (protocol negotiation failed: ${status})`;
  }
}

function authenticateMessage(status: string, target: SmbTarget): string {
  switch (status) {
    case 'NT_STATUS_LOGON_FAILURE':
    case 'NT_STATUS_WRONG_PASSWORD':
    case 'NT_STATUS_NO_SUCH_USER':
      return `authentication failed for ${who(target)}`;
    case 'NT_STATUS_ACCOUNT_DISABLED':
      return `the account of ${who(target)} is disabled`;
    case 'NT_STATUS_ACCOUNT_LOCKED_OUT':
      return `the account of ${who(target)} is locked out`;
    case 'NT_STATUS_PASSWORD_EXPIRED':
    case 'NT_STATUS_PASSWORD_MUST_CHANGE':
      return `the password of ${who(target)} has expired`;
    case 'NT_STATUS_ACCOUNT_RESTRICTION':
    case 'NT_STATUS_INVALID_LOGON_HOURS':
    case 'NT_STATUS_INVALID_WORKSTATION':
      return `${who(target)} may not log on at this time or from this host`;
    case 'NT_STATUS_ACCESS_DENIED':
      return `access denied for ${who(target)}`;
    default:
      return `authentication failed for ${who(target)} (${status})`;
  }
}

function openPathMessage(status: string, target: SmbTarget, treeConnect: boolean): string {
  const path = shownDir(target);
  if (treeConnect) {
    if (status === 'NT_STATUS_BAD_NETWORK_NAME') return `share '${target.share}' not found on host '${target.host}'`;
    if (status === 'NT_STATUS_ACCESS_DENIED') return `access to share '${target.share}' denied for ${who(target)}`;
    return `cannot open share '${target.share}' (${status})`;
  }
  if (vanishedStatuses.has(status) && status !== 'NT_STATUS_NOT_A_DIRECTORY') return `path '${path}' not found on share`;
  if (status === 'NT_STATUS_NOT_A_DIRECTORY') return `path '${path}' is not a directory`;
  if (status === 'NT_STATUS_ACCESS_DENIED') return `access to path '${path}' denied for ${who(target)}`;
  return `cannot open path '${path}' (${status})`;
}

/** `\sub\dir\*` as printed by smbclient → "sub/dir" for messages. */
function listedPath(raw: string): string {
  return raw.replace(/\\\*$/, '').split('\\').filter(Boolean).join('/') || '.';
}

/**
 * Maps one line of smbclient output to the step it failed and a plain message, or undefined
 * when the line reports no failure. The line shapes are those of smbclient 4.x.
 */
export function classifySmbLine(line: string, target: SmbTarget, timeoutMs: number): SmbFailure | undefined {
  // Listing entries and directory headers carry file names, which may contain anything.
  if (line.startsWith('  ') || line.startsWith('\\')) return undefined;
  const status = /NT_STATUS_[A-Z0-9_]+/.exec(line)?.[0];
  if (status === undefined) return undefined;
  if (line.startsWith('protocol negotiation failed') || line.startsWith('do_connect:')) {
    return { step: 'negotiate_protocol', status, message: negotiateMessage(status, target, timeoutMs) };
  }
  if (line.startsWith('session setup failed')) return { step: 'authenticate', status, message: authenticateMessage(status, target) };
  if (line.startsWith('tree connect failed')) return { step: 'open_path', status, message: openPathMessage(status, target, true) };
  if (line.startsWith('cd ')) return { step: 'open_path', status, message: openPathMessage(status, target, false) };
  if (line.startsWith('Error in dskattr')) return { step: 'list', status, message: `smbclient failed: ${line.trim()}`, afterListing: true };
  const listing = /^NT_STATUS_[A-Z0-9_]+ listing (.*)$/.exec(line);
  if (listing) {
    const path = listedPath(listing[1] ?? '');
    const message = status === 'NT_STATUS_ACCESS_DENIED' ? `listing path '${path}' denied for ${who(target)}` : `cannot list path '${path}' (${status})`;
    return { step: 'list', status, message };
  }
  return { step: 'negotiate_protocol', status, message: `smbclient failed: ${line.trim()}` };
}
