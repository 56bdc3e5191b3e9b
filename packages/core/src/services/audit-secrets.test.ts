import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDms, type Dms } from '../runtime/open-dms.js';
import type { DmsLog } from '../runtime/log.js';
import { calledFrom, systemPrincipal, type Principal } from '../scopes/principal.js';

/** Every line the service logs, as the JSON a log shipper would forward. */
function capturingLog(lines: string[]): DmsLog {
  const write = (fields: object, message: string) => void lines.push(JSON.stringify({ ...fields, msg: message }));
  return { info: write, warn: write, error: write };
}

describe('the audit log keeps no secret (issue 22)', () => {
  let dataDir: string;
  let dms: Dms;
  const lines: string[] = [];
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dms-audit-secrets-'));
    lines.length = 0;
    dms = await openDms({ role: 'command', createDatabase: true, dataDir, localRoots: [dataDir], trapSender: null, log: capturingLog(lines) });
  });
  afterEach(async () => {
    await dms.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('records every change that sets a secret, and neither a stored event nor a log line holds one', async () => {
    const { core } = dms;
    const admin: Principal = calledFrom(systemPrincipal, { via: 'rest', clientAddress: '192.0.2.1', requestId: 'r' });
    const secrets = {
      userPassword: 'User-Secret-Passw0rd-1',
      userPassword2: 'User-Secret-Passw0rd-2',
      sharePassword: 'Share-Secret-Passw0rd',
      sharePassword2: 'Share-Secret-Passw0rd-2',
      trapCommunity: 'trap-secret-community',
      trapCommunity2: 'trap-secret-community-2',
      agentCommunity: 'agent-secret-community',
    };
    await core.users.create(admin, { username: 'operator', password: secrets.userPassword });
    await core.users.update(admin, 'operator', { password: secrets.userPassword2 });
    const nas = await core.nas.create(admin, { name: 'filer', host: 'filer.example', type: 'local' });
    const share = await core.shares.create(admin, String(nas.id), { name: 'docs', path: 'docs', username: 'svc', password: secrets.sharePassword });
    await core.shares.update(admin, { kind: 'all' }, String(share.id), { password: secrets.sharePassword2 });
    const trap = await core.traps.create(admin, { manager: '127.0.0.1:1162', community: secrets.trapCommunity });
    await core.traps.update(admin, trap.snmp_trap_id, { community: secrets.trapCommunity2 });
    await core.snmpConfig.update(admin, { community: secrets.agentCommunity });
    const key = await core.apiKeys.create(admin, { name: 'ci', api_key_scopes: [{ controller: 'nas', action: 'index' }] });

    const { audit_events: events } = await core.auditEvents.list(admin, { per_page: ['100'] });
    expect(events.map((event) => `${event.action} ${event.resource?.type}`).sort()).toEqual(
      [
        'create users',
        'update users',
        'create nas',
        'create nas_shares',
        'update nas_shares',
        'create traps',
        'update traps',
        'update server_configuration',
        'key_created api_keys',
      ].sort(),
    );
    const auditLines = lines.filter((line) => line.includes('"audit":true'));
    expect(auditLines).toHaveLength(events.length);
    const stored = JSON.stringify(events);
    for (const secret of [...Object.values(secrets), key.key]) {
      expect(stored).not.toContain(secret);
      for (const line of lines) expect(line).not.toContain(secret);
    }
    // The fields were recorded, as changed: what the log says is that they changed.
    expect(events.filter((event) => Object.values(event.changes ?? {}).includes('changed'))).toHaveLength(7);
  });
});
