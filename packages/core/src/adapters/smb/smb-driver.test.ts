import { mkdirSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriverError } from '../../ports/share-driver.js';
import type { NasType } from '../../domain/common.js';
import { freePort } from '../../testing/fixture-support.js';
import { recordingRun, shareLocation } from '../../testing/recording-run.js';
import { sambaCheck, startSambaServer, type SambaServer } from '../../testing/samba-server.js';
import { createSmbDriver } from './smb-driver.js';

const check = sambaCheck();
// Leading blanks on purpose: smbclient's auth file would drop them (the driver pipes it).
const user = { name: 'dmstest', password: '  S3cret pass!' };
const BIG = 5_000_000_000;

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!check.ok)('SMB driver against a real Samba', () => {
  let tree: string;
  let samba: SambaServer;
  let samba21: SambaServer;
  const driver = createSmbDriver();

  const location = (type: NasType, fields: Parameters<typeof shareLocation>[1] = {}, server = () => samba) =>
    shareLocation(type, {
      host: server().host,
      path: 'data',
      username: user.name,
      password: user.password,
      ...fields,
      options: { port: String(server().port), ...fields.options },
    });

  const outcomes = (run: ReturnType<typeof recordingRun>) => run.steps.map((s) => `${s.name}:${s.outcome}`);

  beforeAll(async () => {
    tree = mkdtempSync(join(tmpdir(), 'dms-smb-tree-'));
    const file = (path: string, bytes: number) => {
      mkdirSync(join(tree, path, '..'), { recursive: true });
      writeFileSync(join(tree, path), Buffer.alloc(bytes, 0x62));
    };
    file('a.txt', 6);
    file('.hidden', 3);
    file('empty', 0);
    file('with space/my file.txt', 4);
    file('  lead/x  D', 5);
    file('trail  ', 2);
    file('this is a rather long file name exceeding thirty characters.txt', 7);
    file('deep/er/est/f.bin', 1000);
    mkdirSync(join(tree, 'emptydir'));
    // Sparse: a size wider than smbclient's 8-column size field, without using the disk.
    writeFileSync(join(tree, 'big.bin'), '');
    truncateSync(join(tree, 'big.bin'), BIG);
    [samba, samba21] = await Promise.all([
      startSambaServer({ shares: { data: tree }, users: [user] }),
      startSambaServer({ shares: { data: tree }, users: [user], maxProtocol: 'SMB2_10' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([samba?.stop(), samba21?.stop()]);
    rmSync(tree, { recursive: true, force: true });
  });

  it('announces the six steps', () => {
    expect(driver.testSteps(location('smb_v3'))).toEqual(['resolve_host', 'connect', 'negotiate_protocol', 'authenticate', 'open_path', 'list']);
  });

  // The dialect is the one smbclient negotiated: Samba's highest within the type's range.
  it.each([
    ['smb_v3', 'SMB 3.1.1'],
    ['smb_v2_1', 'SMB 2.1'],
    ['smb_v1', 'SMB 1'],
  ] as const)('passes every step with %s and says what it reached (%s)', async (type, dialect) => {
    const run = recordingRun();
    // a.txt, .hidden, empty, with space, "  lead", "trail  ", the long name, deep, emptydir, big.bin
    expect(await driver.test(location(type), run)).toMatchObject({
      ok: true,
      message: `reached share 'data' on 127.0.0.1 as 'dmstest' (${dialect}), 10 entries listed`,
    });
    expect(outcomes(run)).toEqual(['resolve_host:ok', 'connect:ok', 'negotiate_protocol:ok', 'authenticate:ok', 'open_path:ok', 'list:ok']);
  });

  it('opens a sub-directory with spaces, given with backslashes too', async () => {
    expect(await driver.test(location('smb_v3', { path: 'data\\with space' }), recordingRun())).toMatchObject({
      ok: true,
      message: "reached share 'data' on 127.0.0.1 as 'dmstest' (SMB 3.1.1), 1 entry listed in 'data/with space'",
    });
  });

  it('resolves a host name, and names the host as given', async () => {
    expect(await driver.test(location('smb_v3', { host: 'localhost' }), recordingRun())).toMatchObject({
      ok: true,
      message: expect.stringContaining("reached share 'data' on localhost as 'dmstest'"),
    });
  });

  it('names the user when the password is wrong', async () => {
    const run = recordingRun();
    const result = await driver.test(location('smb_v3', { password: 'wrong' }), run);
    expect(result).toEqual({ ok: false, message: "authentication failed for user 'dmstest'" });
    expect(outcomes(run)).toEqual(['resolve_host:ok', 'connect:ok', 'negotiate_protocol:ok', 'authenticate:failed', 'open_path:skipped', 'list:skipped']);
  });

  it('passes the domain option', async () => {
    expect(await driver.test(location('smb_v3', { options: { domain: 'WORKGROUP' } }), recordingRun())).toMatchObject({
      ok: true,
      message: expect.stringContaining("as 'WORKGROUP\\dmstest'"),
    });
  });

  it('names the anonymous user when there are no credentials', async () => {
    const result = await driver.test(location('smb_v3', { username: null, password: null }), recordingRun());
    expect(result).toEqual({ ok: false, message: 'authentication failed for the anonymous user' });
  });

  it('fails authentication for an unknown user', async () => {
    const result = await driver.test(location('smb_v3', { username: 'nobody-here' }), recordingRun());
    expect(result).toEqual({ ok: false, message: "authentication failed for user 'nobody-here'" });
  });

  it('reports an unknown share', async () => {
    const run = recordingRun();
    const result = await driver.test(location('smb_v3', { path: 'nosuch/dir' }), run);
    expect(result).toEqual({ ok: false, message: "share 'nosuch' not found on host '127.0.0.1'" });
    expect(outcomes(run).slice(4)).toEqual(['open_path:failed', 'list:skipped']);
  });

  it('reports an unknown path inside the share', async () => {
    const result = await driver.test(location('smb_v3', { path: 'data/no/such' }), recordingRun());
    expect(result).toEqual({ ok: false, message: "path 'data/no/such' not found on share" });
  });

  it('reports a file where a directory was expected', async () => {
    const result = await driver.test(location('smb_v3', { path: 'data/a.txt' }), recordingRun());
    expect(result).toEqual({ ok: false, message: "path 'data/a.txt' is not a directory" });
  });

  it('fails fast on a closed port', async () => {
    const port = await freePort();
    const run = recordingRun();
    const started = performance.now();
    const result = await driver.test(location('smb_v3', { options: { port: String(port) } }), run);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result).toEqual({
      ok: false,
      message: `connection refused by host '127.0.0.1' on port ${port} (nothing listening there?)`,
    });
    expect(outcomes(run)).toEqual([
      'resolve_host:ok',
      'connect:failed',
      'negotiate_protocol:skipped',
      'authenticate:skipped',
      'open_path:skipped',
      'list:skipped',
    ]);
  });

  it('pins the dialect: SMB 3 against a server that stops at SMB 2.1 fails negotiation', async () => {
    const run = recordingRun();
    const result = await driver.test(
      location('smb_v3', {}, () => samba21),
      run,
    );
    expect(result).toMatchObject({
      ok: false,
      message: expect.stringContaining("host '127.0.0.1' does not speak SMB 3"),
    });
    expect(outcomes(run)[2]).toBe('negotiate_protocol:failed');
    expect(
      await driver.test(
        location('smb_v2_1', {}, () => samba21),
        recordingRun(),
      ),
    ).toMatchObject({ ok: true, message: expect.stringContaining('(SMB 2.1)') });
  });

  it('fails within the timeout on a server that accepts and stays silent', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const run = recordingRun({ timeoutMs: 300 });
      const started = performance.now();
      const result = await driver.test(location('smb_v3', { options: { port: String(port) } }), run);
      expect(performance.now() - started).toBeLessThan(3000);
      expect(result).toEqual({ ok: false, message: "host '127.0.0.1' did not complete the SMB session within 300 ms" });
      expect(outcomes(run)[2]).toBe('negotiate_protocol:failed');
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('says so when smbclient is missing', async () => {
    const missing = createSmbDriver({ smbclientPath: '/nonexistent/smbclient' });
    const result = await missing.test(location('smb_v3'), recordingRun());
    expect(result).toEqual({ ok: false, message: 'smbclient is not installed (apt-get install smbclient)' });
  });

  it('issue 43: a scan says so when smbclient is missing', async () => {
    const missing = createSmbDriver({ smbclientPath: '/nonexistent/smbclient' });
    await expect(missing.scan(location('smb_v3'), recordingRun())).rejects.toThrow(new DriverError('smbclient is not installed (apt-get install smbclient)'));
  });

  it('fails the first step for a path without a share name', async () => {
    const run = recordingRun();
    const result = await driver.test(location('smb_v3', { path: '/' }), run);
    expect(result).toEqual({ ok: false, message: "path '/' must start with the name of the SMB share" });
    expect(outcomes(run)[0]).toBe('resolve_host:failed');
  });

  it('leaves no credentials file behind', async () => {
    const before = readdirSync(tmpdir()).filter((name) => name.startsWith('dms-smbclient-'));
    await driver.test(location('smb_v3'), recordingRun());
    const after = readdirSync(tmpdir()).filter((name) => name.startsWith('dms-smbclient-'));
    expect(after).toEqual(before);
  });

  it('scans the share with exact counts', async () => {
    const run = recordingRun();
    const result = await driver.scan(location('smb_v3'), run);
    // a.txt, .hidden, empty, my file.txt, x  D, trail (mangled name), the long name, f.bin, big.bin
    expect(result).toMatchObject({ file_count: 9, file_size_sum: 6 + 3 + 0 + 4 + 5 + 2 + 7 + 1000 + BIG });
  });

  it('scans a sub-directory over SMB 2.1', async () => {
    const result = await driver.scan(location('smb_v2_1', { path: 'data/deep' }), recordingRun());
    expect(result).toMatchObject({ file_count: 1, file_size_sum: 1000 });
  });

  it('scans an empty directory', async () => {
    expect(await driver.scan(location('smb_v3', { path: 'data/emptydir' }), recordingRun())).toMatchObject({
      file_count: 0,
      file_size_sum: 0,
    });
  });

  it('stops a scan when the run is aborted', async () => {
    const run = recordingRun();
    run.controller.abort();
    await expect(driver.scan(location('smb_v3'), run)).rejects.toThrow(/abort/i);
  });

  it('fails a scan on a closed port with the words of a failed test', async () => {
    const port = await freePort();
    const closed = location('smb_v3', { options: { port: String(port) } });
    const tested = await driver.test(closed, recordingRun());
    const message = `connection refused by host '127.0.0.1' on port ${port} (nothing listening there?)`;
    expect(tested).toEqual({ ok: false, message });
    await expect(driver.scan(closed, recordingRun())).rejects.toThrow(new DriverError(message));
  });

  it('throws plain DriverErrors from scans', async () => {
    await expect(driver.scan(location('smb_v3', { password: 'wrong' }), recordingRun())).rejects.toThrow(
      new DriverError("authentication failed for user 'dmstest'"),
    );
    await expect(driver.scan(location('smb_v3', { path: 'data/gone' }), recordingRun())).rejects.toThrow("path 'data/gone' not found on share");
  });
});
