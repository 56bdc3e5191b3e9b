import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shareLocation } from '../../testing/recording-run.js';
import { negotiatedDialect, smbTestSummary } from './smb-summary.js';
import { smbTarget } from './smb-target.js';

const target = (fields: Parameters<typeof shareLocation>[1]) => smbTarget(shareLocation('smb_v3', { host: 'nas1', path: 'data', ...fields }));

describe('smbTestSummary', () => {
  it('names the share, host, account, dialect and what was listed', () => {
    expect(smbTestSummary(target({ username: 'bob' }), 'SMB 3.1.1', 12)).toBe("reached share 'data' on nas1 as 'bob' (SMB 3.1.1), 12 entries listed");
  });

  it('names the anonymous user, a domain account and a sub-directory', () => {
    expect(smbTestSummary(target({ path: 'data/a/b' }), 'SMB 3.0', 1)).toBe(
      "reached share 'data' on nas1 as the anonymous user (SMB 3.0), 1 entry listed in 'data/a/b'",
    );
    expect(smbTestSummary(target({ username: 'bob', options: { domain: 'CORP' } }), 'SMB 2.1', 0)).toContain("as 'CORP\\bob'");
  });

  it("falls back to the type's range when the dialect is unknown", () => {
    expect(smbTestSummary(target({ username: 'bob' }), undefined, 2)).toContain('(SMB 3)');
  });
});

describe('negotiatedDialect', () => {
  it("reads smbclient's debug log, and is undefined without one", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dms-smb-log-'));
    try {
      expect(await negotiatedDialect(dir)).toBeUndefined();
      writeFileSync(join(dir, 'log.smbclient'), ' session request ok\n negotiated dialect[SMB3_02] against server[10.0.0.5]\n');
      expect(await negotiatedDialect(dir)).toBe('SMB 3.0.2');
      writeFileSync(join(dir, 'log.smbclient'), ' negotiated dialect[SMB4_00] against server[10.0.0.5]\n');
      expect(await negotiatedDialect(dir)).toBe('SMB4_00');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
