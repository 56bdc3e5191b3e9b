import type { NasType } from '@dms/core';

/** What the share form says under Path and Mount options for one kind of NAS. */
export interface ShareTypeHelp {
  path: string;
  options: string;
}

// Only what the core's drivers read (packages/core/src/adapters): SMB takes `port=` and
// `domain=`, NFS `port=` and `mountport=`; the protocol version is the NAS's type, never an
// option, so no `vers=` is suggested where it would be ignored.
const smb: ShareTypeHelp = {
  path: 'The SMB share’s name, then any folder inside it: DATA or DATA/projects (backslashes work too)',
  options: 'Comma-separated, no spaces: port=445 (the default), domain=WORKGROUP for a domain account. The SMB version is the NAS’s type.',
};

const nfs: ShareTypeHelp = {
  path: 'The exported path on the NAS, or a folder under it: /export/projects',
  options: 'Comma-separated, no spaces: port=2049 (the default), mountport=20048 when rpcbind is unreachable (NFS v3). The NFS version is the NAS’s type.',
};

/** Per NAS type, keyed by the core's union: a type added there fails the typecheck until it has its help. */
export const shareTypeHelp: Record<NasType, ShareTypeHelp> = {
  local: {
    path: 'A folder under this computer’s local share roots, such as projects (a relative path lies in the first root).',
    options: 'A local share takes no options: leave this empty.',
  },
  smb_v1: smb,
  smb_v2_1: smb,
  smb_v3: smb,
  nfs_v3: nfs,
  nfs_v4: nfs,
  storenext_v5: {
    path: 'The path on the StorNext file system',
    options: 'StorNext shares cannot be tested or scanned yet: options are stored as given.',
  },
};

/**
 * The help for a NAS's type; a type this console does not know gets the general words. A local
 * share's names the absolute roots it may lie under, when the signed-in admin may see them.
 */
export function helpFor(type: string | undefined, localRoots?: readonly string[] | null): ShareTypeHelp {
  if (type === 'local' && localRoots && localRoots.length > 0) {
    const roots = localRoots.join(', ');
    return {
      ...shareTypeHelp.local,
      path: `A folder under ${localRoots.length === 1 ? 'this local share root' : 'these local share roots'}: ${roots}; such as projects (a relative path lies in the first root).`,
    };
  }
  return (
    shareTypeHelp[type as NasType] ?? {
      path: 'The export or share path on the NAS',
      options: 'Comma-separated key or key=value, no spaces',
    }
  );
}
