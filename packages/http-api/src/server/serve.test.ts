import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnmptrapdPeer, createSnmpToolEnv, freeUdpPort, requireTools } from '@dms/core/testing';
import { readConfig } from './config.js';
import { startServer, type RunningServer } from './serve.js';

const run = promisify(execFile);
const tools = requireTools(['snmptrapd', 'snmpget'], 'bash .ci/setup-snmp.sh');

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!tools.ok)('dms serve with SNMP: traps reach a real snmptrapd, snmpget reads the agent', () => {
  let dir: string;
  let server: RunningServer;
  let peer: SnmptrapdPeer;
  let trapPort: number;
  let agentPort: number;
  const snmpEnv = createSnmpToolEnv();
  const auth = `Basic ${Buffer.from('admin:serve-test-password').toString('base64')}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (response.status === 204 ? {} : await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-serve-'));
    mkdirSync(join(dir, 'shares', 'projects'), { recursive: true });
    trapPort = await freeUdpPort();
    agentPort = await freeUdpPort();
    peer = new SnmptrapdPeer();
    await peer.start({ snmptrapd: tools.paths['snmptrapd']!, communities: ['dms-traps'], listen: [`udp:127.0.0.1:${trapPort}`] });
    server = await startServer(
      readConfig({
        DMS_DATA_DIR: dir,
        DMS_PORT: '0',
        DMS_ADMIN_PASSWORD: 'serve-test-password',
        DMS_SNMP_AGENT_PORT: String(agentPort),
        DMS_LOG_LEVEL: 'silent',
      }),
    );
  });
  afterAll(async () => {
    await server?.stop();
    await peer?.stop();
    snmpEnv.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends a failed share test as a trap to an in-band target and nothing to an out-of-band one', async () => {
    await call('POST', '/nas', { name: 'local', host: 'localhost', type: 'local' });
    const inBand = await call('POST', '/snmp/traps', { manager: `127.0.0.1:${trapPort}`, community: 'dms-traps', severity_low: 4, severity_high: 5 });
    expect(inBand.status).toBe(201);
    await call('POST', '/snmp/traps', { manager: `127.0.0.1:${trapPort}`, community: 'dms-traps', version: 'v1', severity_low: 1, severity_high: 2 });
    const started = await call('PUT', '/nas/local/nas_shares/-/test', { name: 'ghost', path: 'missing/dir' });
    expect(started.status).toBe(202);
    const done = await call('GET', `/nas/local/nas_shares/-/test?job_id=${String(started.body['job_id'])}&wait=10`);
    expect(done.body['status']).toBe('failed');
    const trap = await peer.waitFor((t) => t.varbinds.some((v) => v.includes('dmsShareTestFailed')));
    expect(trap.version).toBe(1);
    expect(trap.varbinds.join('\n')).toMatch(/dmsEventSeverity.*error\(4\)/);
    expect(trap.varbinds.join('\n')).toContain("share test of 'ghost' failed");
    // The v1 target's band (1–2) holds service_started (2) but not share_test_failed (4).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(peer.traps.filter((t) => t.version === 0 && t.specific === '2')).toHaveLength(0);
  });

  it('sends a test trap on POST /snmp/traps/{id}/test (202)', async () => {
    const target = await call('POST', '/snmp/traps', { manager: `127.0.0.1:${trapPort}`, community: 'dms-traps', activation: 0 });
    const tested = await call('POST', `/snmp/traps/${String(target.body['snmp_trap_id'])}/test`);
    expect(tested.status).toBe(202);
    const trap = await peer.waitFor((t) => t.varbinds.some((v) => v.includes('dmsTestTrap')));
    expect(trap.community).toBe('dms-traps');
    expect((await call('POST', '/snmp/traps/999/test')).status).toBe(404);
  });

  it('answers snmpget with the configured community and applies a new location at once', async () => {
    const get = (community: string, oid: string) =>
      run('snmpget', ['-v2c', '-c', community, '-t', '1', '-r', '0', '-Ovq', `127.0.0.1:${agentPort}`, oid], { env: snmpEnv.env });
    expect((await call('PUT', '/snmp/server_configuration', { community: 'dms-ro', location: 'rack 7' })).status).toBe(200);
    expect((await get('dms-ro', '1.3.6.1.2.1.1.6.0')).stdout.trim()).toBe('"rack 7"');
    await call('PUT', '/snmp/server_configuration', { location: 'room 12' });
    expect((await get('dms-ro', '1.3.6.1.2.1.1.6.0')).stdout.trim()).toBe('"room 12"');
    await expect(get('public', '1.3.6.1.2.1.1.6.0')).rejects.toThrow();
  });
});
