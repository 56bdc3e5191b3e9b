import type { NasType } from '../../domain/common.js';
import { DriverError, type ShareDriver, type ShareDriverRegistry } from '../../ports/share-driver.js';
import { createLocalDriver } from '../local/local-driver.js';

export interface ShareDriverRegistryOptions {
  localRoots: string[];
  smbclientPath?: string;
}

function unsupported(type: NasType): ShareDriver {
  const message = `${type} shares are not supported`;
  return {
    testSteps: () => ['connect'],
    async test(_location, run) {
      run.onStep({ name: 'connect', outcome: 'failed', duration_ms: 0, message });
      return { ok: false, message };
    },
    async scan() {
      throw new DriverError(message);
    },
  };
}

/** Provisional registry (local only) until the SMB and NFS drivers land. */
export function createShareDriverRegistry(options: ShareDriverRegistryOptions): ShareDriverRegistry {
  const local = createLocalDriver({ roots: options.localRoots });
  return { forType: (type) => (type === 'local' ? local : unsupported(type)) };
}
