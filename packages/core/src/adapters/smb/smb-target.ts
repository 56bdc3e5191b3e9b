import type { NasType } from '../../domain/common.js';
import { DriverError, type ShareLocation } from '../../ports/share-driver.js';
import { bareHost, portOption } from '../share-drivers/net-probes.js';

export type SmbType = Extract<NasType, 'smb_v1' | 'smb_v2_1' | 'smb_v3'>;

export interface SmbTarget {
  host: string;
  port: number;
  /** The SMB share: the first segment of the share's path. */
  share: string;
  /** The rest of the path, `/`-separated, '' for the share's root. */
  dir: string;
  domain: string | undefined;
  username: string | null;
  password: string | null;
  protocol: SmbProtocol;
}

export interface SmbProtocol {
  /** For messages: "SMB 3". */
  label: string;
  /** smbclient flags pinning the dialect range. */
  args: readonly string[];
}

// Pinned on both ends where the type names one dialect; SMB 3 leaves the upper bound open so
// 3.0 .. 3.1.1 all pass. `-m` alone only caps, `client min protocol` alone only floors.
const protocols: Record<SmbType, SmbProtocol> = {
  smb_v1: { label: 'SMB 1', args: ['-m', 'NT1', '--option=client min protocol=NT1'] },
  smb_v2_1: {
    label: 'SMB 2.1',
    args: ['-m', 'SMB2_10', '--option=client min protocol=SMB2_10', '--option=client max protocol=SMB2_10'],
  },
  smb_v3: { label: 'SMB 3', args: ['-m', 'SMB3', '--option=client min protocol=SMB3'] },
};

function checkLine(value: string | null, what: string): void {
  // The auth file is line based: a line break would smuggle in another setting.
  if (value !== null && /[\r\n\0]/.test(value)) throw new DriverError(`${what} must not contain line breaks`);
}

/**
 * Reads a share's location as SMB: `path` is "SHARE/sub/dir" (a leading slash and Windows
 * backslashes are accepted), options `port=` (445) and `domain=`.
 */
export function smbTarget(location: ShareLocation): SmbTarget {
  const type = location.type as SmbType;
  const protocol = protocols[type];
  if (protocol === undefined) throw new Error(`not an SMB type: ${location.type}`);
  const segments = location.path.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new DriverError(`path '${location.path}' must not contain '..'`);
  const [share, ...rest] = segments;
  if (share === undefined) throw new DriverError(`path '${location.path}' must start with the name of the SMB share`);
  const domain = location.options.get('domain');
  if (domain === true) throw new DriverError("option 'domain' needs a value (domain=NAME)");
  checkLine(location.username, 'the user name');
  checkLine(location.password, 'the password');
  checkLine(domain ?? null, "option 'domain'");
  return {
    host: bareHost(location.host),
    port: portOption(location.options, 'port', 445),
    share,
    dir: rest.join('/'),
    domain,
    username: location.username,
    password: location.password,
    protocol,
  };
}

/** "DATA/sub/dir" as users typed it, for messages. */
export function shownDir(target: SmbTarget): string {
  return target.dir === '' ? target.share : `${target.share}/${target.dir}`;
}
