import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMibPath, mibSearchPath, standardMibPath } from './mib-path.js';

describe('MIB paths', () => {
  it('finds DMS-MIB and the SMIv2 modules it imports', () => {
    expect(isAbsolute(loadMibPath())).toBe(true);
    expect(existsSync(join(loadMibPath(), 'DMS-MIB.txt'))).toBe(true);
    for (const module of ['SNMPv2-SMI', 'SNMPv2-TC', 'SNMPv2-CONF']) {
      expect(existsSync(join(standardMibPath(), `${module}.mib`))).toBe(true);
    }
    expect(mibSearchPath()).toBe(`${loadMibPath()}:${standardMibPath()}`);
  });
});
