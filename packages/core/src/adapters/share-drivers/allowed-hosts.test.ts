import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NasType } from '../../domain/common.js';
import type { AllowedHosts } from '../../ports/share-driver.js';
import { DriverError } from '../../ports/share-driver.js';
import { createHostPolicy } from '../../security/host-policy.js';
import { recordingRun, shareLocation } from '../../testing/recording-run.js';
import { createShareDriverRegistry } from './index.js';
import { resolveHost, type LookupAll } from './net-probes.js';

/** A TCP listener standing in for a host the list excludes: it counts who reached it. */
async function target(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The policy of `entries`, as a job hands it to its driver; records what it was asked. */
function allowedBy(entries: string[]): AllowedHosts & { asked: Array<[string, readonly string[]]> } {
  const policy = createHostPolicy(entries);
  const asked: Array<[string, readonly string[]]> = [];
  return {
    asked,
    allows: async (host, addresses) => {
      asked.push([host, [...addresses]]);
      return policy.allowsResolved(host, addresses);
    },
  };
}

describe('resolveHost under share_test_allowed_hosts', () => {
  const run = (allowedHosts?: AllowedHosts) => ({ timeoutMs: 1000, signal: new AbortController().signal, ...(allowedHosts ? { allowedHosts } : {}) });

  it('finding 20.4: resolves once, checks every address of that answer, and answers one of them (no rebinding between check and connect)', async () => {
    // A resolver whose answer changes on every call, as a rebinding DNS server's would.
    const answers = [['10.0.0.7', '10.0.0.8'], ['127.0.0.1']];
    let lookups = 0;
    const rebinding: LookupAll = async () => answers[lookups++] ?? ['127.0.0.1'];
    const allowed = allowedBy(['10.0.0.0/8']);
    expect(await resolveHost('nas.example', run(allowed), rebinding)).toBe('10.0.0.7');
    expect(lookups).toBe(1);
    expect(allowed.asked).toEqual([['nas.example', ['10.0.0.7', '10.0.0.8']]]);

    const refused = resolveHost('nas.example', run(allowed), rebinding);
    await expect(refused).rejects.toThrow(DriverError);
    await expect(refused).rejects.toThrow(
      "host 'nas.example' (it resolves to 127.0.0.1) is not among the share_test_allowed_hosts of this server; an admin can add it in the settings",
    );
  });

  it('finding 20.4: a name with one address outside the list is refused; an address is checked without a lookup', async () => {
    const mixed: LookupAll = async () => ['10.0.0.7', '127.0.0.1'];
    await expect(resolveHost('mixed.example', run(allowedBy(['10.0.0.0/8'])), mixed)).rejects.toThrow('share_test_allowed_hosts');
    const noLookup: LookupAll = () => Promise.reject(new Error('no lookup expected'));
    await expect(resolveHost('127.0.0.1', run(allowedBy(['10.0.0.0/8'])), noLookup)).rejects.toThrow(
      "host '127.0.0.1' is not among the share_test_allowed_hosts",
    );
    expect(await resolveHost('[::1]', run(allowedBy(['::1'])), noLookup)).toBe('::1');
    expect(await resolveHost('127.0.0.1', run(), noLookup)).toBe('127.0.0.1');
  });
});

describe('network share drivers connect only where share_test_allowed_hosts allows', () => {
  let listener: Awaited<ReturnType<typeof target>>;
  const registry = createShareDriverRegistry({ localRoots: [] });
  beforeAll(async () => {
    listener = await target();
  });
  afterAll(() => listener.close());

  const location = (type: NasType) =>
    shareLocation(type, {
      host: '127.0.0.1',
      path: type.startsWith('smb') ? 'share' : '/export',
      options: { port: String(listener.port), mountport: String(listener.port) },
    });

  for (const type of ['smb_v1', 'smb_v3', 'nfs_v3', 'nfs_v4'] as const) {
    it(`finding 20.4: ${type} fails at resolve_host naming the setting, and never reaches the host`, async () => {
      const before = listener.connections();
      const run = { ...recordingRun(), allowedHosts: allowedBy(['10.0.0.0/8']) };
      const result = await registry.forType(type).test(location(type), run);
      expect(result).toEqual({
        ok: false,
        message: "host '127.0.0.1' is not among the share_test_allowed_hosts of this server; an admin can add it in the settings",
      });
      expect(run.steps[0]).toMatchObject({ name: 'resolve_host', outcome: 'failed' });
      expect(run.steps.slice(1).every((step) => step.outcome === 'skipped')).toBe(true);
      expect(listener.connections()).toBe(before);
    });
  }

  it('finding 20.4: an SMB scan is refused the same way, before smbclient runs', async () => {
    const before = listener.connections();
    const run = { ...recordingRun(), allowedHosts: allowedBy(['10.0.0.0/8']) };
    await expect(registry.forType('smb_v3').scan(location('smb_v3'), run)).rejects.toThrow('share_test_allowed_hosts');
    expect(listener.connections()).toBe(before);
  });

  it('the listener does count a driver the list allows (the refusals above are not vacuous)', async () => {
    const before = listener.connections();
    const run = { ...recordingRun({ timeoutMs: 2000 }), allowedHosts: allowedBy(['127.0.0.0/8']) };
    const result = await registry.forType('nfs_v4').test(location('nfs_v4'), run);
    expect(result.ok).toBe(false);
    expect(run.steps.slice(0, 2).map((step) => `${step.name}:${step.outcome}`)).toEqual(['resolve_host:ok', 'connect:ok']);
    expect(listener.connections()).toBe(before + 1);
  });
});
