import { describe, expect, it } from 'vitest';
import { nasTypes } from '../../domain/common.js';
import { createShareDriverRegistry } from './index.js';
import { recordingRun, shareLocation } from '../../testing/recording-run.js';

describe('createShareDriverRegistry', () => {
  const registry = createShareDriverRegistry({ localRoots: [] });

  it('has a driver for every NAS type', () => {
    for (const type of nasTypes) expect(registry.forType(type).testSteps(shareLocation(type))).not.toHaveLength(0);
  });

  it('shares one SMB driver across dialects and one NFS driver across versions', () => {
    expect(registry.forType('smb_v1')).toBe(registry.forType('smb_v3'));
    expect(registry.forType('nfs_v3')).toBe(registry.forType('nfs_v4'));
  });

  it('fails storenext_v5 at once, in one step, and refuses to scan it', async () => {
    const driver = registry.forType('storenext_v5');
    const run = recordingRun();
    const message = 'storenext_v5 shares are not supported';
    expect(await driver.test(shareLocation('storenext_v5'), run)).toEqual({ ok: false, message });
    expect(run.steps).toEqual([{ name: 'connect', outcome: 'failed', duration_ms: 0, message }]);
    await expect(driver.scan(shareLocation('storenext_v5'), recordingRun())).rejects.toThrow(message);
  });
});
