import type { NasType } from '../../domain/common.js';
import type { ShareDriver, ShareDriverRegistry } from '../../ports/share-driver.js';
import { createLocalDriver } from '../local/local-driver.js';
import { createNfsDriver } from '../nfs/nfs-driver.js';
import { createSmbDriver } from '../smb/smb-driver.js';
import { createUnsupportedDriver } from './unsupported-driver.js';

export interface ShareDriverRegistryOptions {
  /** Directories `local` shares may point into (the first holds relative paths). */
  localRoots: string[];
  /** smbclient binary; `smbclient` on PATH by default. */
  smbclientPath?: string;
}

/** Every NasType mapped to its driver; a Record so a new type fails to compile until mapped. */
export function createShareDriverRegistry(options: ShareDriverRegistryOptions): ShareDriverRegistry {
  const smb = createSmbDriver(options.smbclientPath === undefined ? {} : { smbclientPath: options.smbclientPath });
  const nfs = createNfsDriver();
  const drivers: Record<NasType, ShareDriver> = {
    local: createLocalDriver({ roots: options.localRoots }),
    smb_v1: smb,
    smb_v2_1: smb,
    smb_v3: smb,
    nfs_v3: nfs,
    nfs_v4: nfs,
    storenext_v5: createUnsupportedDriver('storenext_v5 shares are not supported'),
  };
  return { forType: (type) => drivers[type] };
}

export { DriverError } from '../../ports/share-driver.js';
export { createLocalDriver } from '../local/local-driver.js';
export { autoScanEngine } from '../local/scan-directory.js';
export { createNfsDriver } from '../nfs/nfs-driver.js';
export { createSmbDriver } from '../smb/smb-driver.js';
export { createUnsupportedDriver } from './unsupported-driver.js';
