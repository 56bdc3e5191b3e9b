import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { expectModelError, readJson, unique, type Nas, type NasShare } from '../../src/testing/fixtures.js';

const api = (path: string) => `/api/v2${path}`;

interface Job {
  job_id: string;
  status: string;
  message?: string | null;
  steps?: Array<{ name: string; outcome: string }>;
}

/**
 * Finding 20.4 through the REST app on both storage adapters. The app's job engine is not
 * started until a test says so: a queued job stays queued (every worker busy, as far as it is
 * concerned) while the NAS and the setting change under it, with no sleep to get the timing.
 */
describe('security review 2: share_test_allowed_hosts is obeyed where the connection is made', () => {
  let t: TestApp;
  let dir: string;
  let listener: Server;
  let port: number;
  let connections: number;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-allowed-hosts-'));
    mkdirSync(join(dir, 'data'));
    t = await createTestApp({ localRoots: [dir] });
    connections = 0;
    // 127.0.0.1 stands in for the host the list excludes: it records whether anything reached it.
    listener = createServer((socket) => {
      connections += 1;
      socket.on('error', () => {});
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
  });
  afterEach(async () => {
    await t.close();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const settings = async (share_test_allowed_hosts: string[]) => {
    const res = await t.call('PUT', api('/settings'), { auth: t.basic, body: { share_test_allowed_hosts } });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const createNas = async (body: Record<string, unknown>) => t.call('POST', api('/nas'), { auth: t.basic, body: { name: unique('nas'), ...body } });
  const updateNas = (nas: Nas, body: Record<string, unknown>) => t.call('PUT', api(`/nas/${nas.id}`), { auth: t.basic, body });
  const created = async <T>(res: Response): Promise<T> => {
    expect([200, 201], await res.clone().text()).toContain(res.status);
    return readJson<T>(res);
  };
  const addShare = async (nas: Nas) =>
    created<NasShare>(
      await t.call('POST', api(`/nas/${nas.id}/nas_shares`), { auth: t.basic, body: { name: unique('share'), path: 'data', options: `port=${port}` } }),
    );
  const queue = async (share: NasShare, kind: 'test' | 'scan') => {
    const res = await t.call('PUT', api(`/nas_shares/${share.id}/${kind}`), { auth: t.basic });
    expect(res.status, await res.clone().text()).toBe(202);
    return readJson<Job>(res);
  };
  /** Long-polls the job until it has ended. */
  const ended = async (share: NasShare, kind: 'test' | 'scan', job: Job): Promise<Job> => {
    for (;;) {
      const res = await t.call('GET', api(`/nas_shares/${share.id}/${kind}?job_id=${job.job_id}&wait=10`), { auth: t.basic });
      const body = await readJson<Job>(res);
      if (body.status === 'completed' || body.status === 'failed') return body;
    }
  };
  /** What an admin could have done before the list was narrowed: point the NAS at the target. */
  const moveWhileAllowed = async (nas: Nas, body: Record<string, unknown>, narrowed: string[]) => {
    await settings([...narrowed, '127.0.0.1']);
    await created(await updateNas(nas, body));
    await settings(narrowed);
  };

  it('finding 20.4: POST and PUT /nas refuse a host outside share_test_allowed_hosts (422 on host naming the setting)', async () => {
    await settings(['10.0.0.0/8']);
    const refused = await expectModelError(await createNas({ type: 'nfs_v4', host: '127.0.0.1' }), 422, 'host', 'forbidden');
    expect(refused.messages.join(' ')).toContain('share_test_allowed_hosts');
    const allowed = await created<Nas>(await createNas({ type: 'nfs_v4', host: '10.1.2.3' }));
    const moved = await expectModelError(await updateNas(allowed, { host: '127.0.0.1' }), 422, 'host', 'forbidden');
    expect(moved.messages.join(' ')).toContain('share_test_allowed_hosts');
    // A local NAS connects nowhere, so its host is not checked; becoming a network NAS is.
    const local = await created<Nas>(await createNas({ type: 'local', host: '127.0.0.1' }));
    await expectModelError(await updateNas(local, { type: 'nfs_v4' }), 422, 'host', 'forbidden');
    // An edit that does not move a NAS is not refused, even when the list no longer covers it.
    await settings(['192.0.2.0/24']);
    expect((await updateNas(allowed, { comment: 'still here' })).status).toBe(200);
    const shown = await readJson<Nas>(await t.call('GET', api(`/nas/${allowed.id}`), { auth: t.basic }));
    expect(shown).toMatchObject({ host: '10.1.2.3', type: 'nfs_v4', comment: 'still here' });
  });

  it('finding 20.4: a queued test of a saved share whose NAS moves to an excluded host fails when it runs, naming the setting, and never connects', async () => {
    await settings(['10.0.0.0/8']);
    const nas = await created<Nas>(await createNas({ type: 'nfs_v4', host: '10.1.2.3' }));
    const share = await addShare(nas);
    const job = await queue(share, 'test');
    // The attack of the finding, now refused where the NAS is saved…
    await expectModelError(await updateNas(nas, { host: '127.0.0.1' }), 422, 'host');
    // …and a NAS that got there before the list was narrowed is refused where the job connects.
    await moveWhileAllowed(nas, { host: '127.0.0.1' }, ['10.0.0.0/8']);
    await t.engine.start();
    const done = await ended(share, 'test', job);
    expect(done.status).toBe('failed');
    expect(done.message).toBe("host '127.0.0.1' is not among the share_test_allowed_hosts of this server; an admin can add it in the settings");
    expect(done.steps?.[0]).toMatchObject({ name: 'resolve_host', outcome: 'failed' });
    expect(connections).toBe(0);
  });

  it('finding 20.4: a test and a scan queued on a local NAS obey the list when the NAS becomes a network NAS on the target', async () => {
    await settings(['10.0.0.0/8']);
    const nas = await created<Nas>(await createNas({ type: 'local', host: 'localhost' }));
    const share = await addShare(nas);
    const test = await queue(share, 'test');
    const scan = await queue(share, 'scan');
    await expectModelError(await updateNas(nas, { type: 'nfs_v4', host: '127.0.0.1' }), 422, 'host');
    await moveWhileAllowed(nas, { type: 'smb_v3', host: '127.0.0.1' }, ['10.0.0.0/8']);
    await t.engine.start();
    for (const [kind, job] of [
      ['test', test],
      ['scan', scan],
    ] as const) {
      const done = await ended(share, kind, job);
      expect(done.status, kind).toBe('failed');
      expect(done.message, kind).toContain('is not among the share_test_allowed_hosts of this server');
    }
    expect(connections).toBe(0);
  });

  it('the same job reaches the target when the list allows it when it runs (the refusals above are not vacuous)', async () => {
    await settings(['10.0.0.0/8']);
    const nas = await created<Nas>(await createNas({ type: 'local', host: 'localhost' }));
    const share = await addShare(nas);
    const job = await queue(share, 'test');
    await settings(['10.0.0.0/8', '127.0.0.1']);
    await created(await updateNas(nas, { type: 'nfs_v4', host: '127.0.0.1' }));
    await t.engine.start();
    const done = await ended(share, 'test', job);
    expect(done.steps?.slice(0, 2).map((step) => `${step.name}:${step.outcome}`)).toEqual(['resolve_host:ok', 'connect:ok']);
    expect(connections).toBe(1);
  });
});
