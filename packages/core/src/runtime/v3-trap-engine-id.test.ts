import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEvent } from '../domain/events.js';
import { systemPrincipal } from '../scopes/principal.js';
import { requireTools } from '../testing/require-tool.js';
import { freeUdpPort } from '../testing/snmp-tool-env.js';
import { SnmptrapdPeer } from '../testing/snmptrapd-peer.js';
import { openDms, type Dms } from './open-dms.js';

/**
 * Issue 24, the wiring: a service's v3 traps leave from the persisted `engine_id` of
 * /snmp/server_configuration, so snmptrapd configured with `createUser -e <engine_id>` as the
 * README says authenticates and decrypts them.
 */
const tools = requireTools(['snmptrapd'], 'bash .ci/setup-snmp.sh');

describe.skipIf(!tools.ok)('v3 traps from the engine id a service persists', () => {
  let root: string;
  let dms: Dms;
  const trapd = new SnmptrapdPeer();

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-v3-engine-'));
    // the service's own net-snmp sender, as `dms serve` builds it
    dms = await openDms({ dataDir: join(root, 'data'), role: 'service' });
  });
  afterEach(async () => {
    await dms.close();
    await trapd.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('is received by snmptrapd with createUser -e <engine_id>', async () => {
    const engineId = (await dms.core.snmpConfig.show(systemPrincipal)).engine_id;
    expect(engineId).toMatch(/^(?:[0-9a-f]{2}){5,32}$/);
    const manager = `127.0.0.1:${await freeUdpPort()}`;
    await trapd.start({
      snmptrapd: tools.paths['snmptrapd']!,
      communities: [],
      listen: [`udp:${manager}`],
      config: [`createUser -e 0x${engineId} dms-notifier SHA-512 auth-pass-Q7xLm AES-256 priv-pass-R2vNs`, 'authUser log dms-notifier'],
    });
    await dms.core.traps.create(systemPrincipal, {
      manager,
      version: 'v3',
      security_name: 'dms-notifier',
      auth_protocol: 'SHA-512',
      auth_passphrase: 'auth-pass-Q7xLm',
      priv_protocol: 'AES-256',
      priv_passphrase: 'priv-pass-R2vNs',
      severity_low: 4,
    });
    dms.events.publish(makeEvent('share_test_failed', 'from the persisted engine', new Date()));
    const trap = await trapd.waitFor((t) => t.varbinds.some((v) => v.includes('from the persisted engine')));
    expect(trap).toMatchObject({ version: 3, user: 'dms-notifier', inform: false });
  });
});
