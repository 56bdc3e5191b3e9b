import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, DmsApiError, gt, gte, inList, type Job, type Nas, type NasShare } from '../src/index.js';
import { adminPassword } from './support/dms-server.js';
import { useDms } from './support/fixture.js';

const t = useDms();
/** The name of the fixture's key: what a job started through `t.dms` records as its requester. */
const keyName = 'sdk tests';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** A tree of `directories` × `filesPerDirectory` one-byte files under the local root. */
function makeTree(name: string, directories: number, filesPerDirectory: number): void {
  for (let d = 0; d < directories; d++) {
    const dir = join(t.server.localRoot, name, `d${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < filesPerDirectory; f++) writeFileSync(join(dir, `f${f}`), 'x');
  }
}

describe('jobs', () => {
  let nas: Nas;
  let share: NasShare;
  let test: Job;
  let scan: Job;
  beforeAll(async () => {
    makeTree('history', 2, 3);
    nas = await t.dms.nas.create({ name: 'nas-history', host: 'localhost', type: 'local' });
    share = await t.dms.nasShares.create(nas.id, { name: 'history', path: 'history' });
    const retest = await t.dms.nasShares.retest(share.id);
    await retest.wait();
    const scanned = await t.dms.nasShares.scan(share.id);
    await scanned.wait();
    [test, scan] = [await t.dms.jobs.get(retest.id), await t.dms.jobs.get(scanned.id)];
  });

  it('gets a job with where it ran, who started it and when', () => {
    expect(test).toMatchObject({
      kind: 'share_test',
      status: 'completed',
      nas_share_id: share.id,
      nas_id: nas.id,
      requester: keyName,
      message: expect.any(String),
    });
    expect(scan).toMatchObject({
      kind: 'share_scan',
      status: 'completed',
      nas_share_id: share.id,
      nas_id: nas.id,
      requester: keyName,
      file_count: 6,
      file_size_sum: 6,
    });
    for (const job of [test, scan]) {
      expect(Date.parse(job.created_at)).toBeLessThanOrEqual(Date.parse(job.finished_at!));
      expect(job.started_at).toEqual(expect.any(String));
    }
  });

  it('lists newest first, filters with the list operators and pages with listAll', async () => {
    const mine = { nas_share_id: share.id };
    const page = await t.dms.jobs.list({ filter: mine });
    expect(page.count).toBe(2);
    expect(page.jobs.map((job) => job.job_id)).toEqual([scan.job_id, test.job_id]);
    expect(page.jobs[0]).toEqual(scan);

    const ids = async (options: Parameters<typeof t.dms.jobs.list>[0]) => (await t.dms.jobs.list(options)).jobs.map((job) => job.job_id);
    expect(await ids({ filter: { ...mine, kind: 'share_scan' } })).toEqual([scan.job_id]);
    expect(await ids({ filter: { ...mine, status: inList(['queued', 'working']) } })).toEqual([]);
    expect(await ids({ filter: { ...mine, requester: keyName, created_at: gte(test.created_at) } })).toEqual([scan.job_id, test.job_id]);
    expect(await ids({ filter: { nas_id: nas.id, id: test.job_id } })).toEqual([test.job_id]);
    expect(await ids({ filter: mine, sortBy: 'created_at:asc' })).toEqual([test.job_id, scan.job_id]);

    const before = t.responses.checked.length;
    expect((await collect(t.dms.jobs.listAll({ filter: mine, limit: 1 }))).map((job) => job.job_id)).toEqual([scan.job_id, test.job_id]);
    expect(t.responses.checked.slice(before)).toEqual(['GET /jobs 200', 'GET /jobs 200']);
  });

  it('answers 404 for a job that does not exist, as a DmsApiError', async () => {
    await expect(t.dms.jobs.get('no-such-job')).rejects.toMatchObject({ name: 'DmsApiError', status: 404, kind: 'not_found' });
  });

  it('follows a scan, reporting each change the server answered, the counts so far included', async () => {
    const files = 2_000;
    makeTree('history-big', 40, files / 40);
    const big = await t.dms.nasShares.create(nas.id, { name: 'history-big', path: 'history-big' });
    // The same server, through a fetch that keeps every answer of GET /jobs/{job_id}.
    const answers: Job[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await t.responses.fetch(input, init);
      if (/\/jobs\/[^/?]+(\?|$)/.test(new URL(String(input)).pathname)) answers.push((await response.clone().json()) as Job);
      return response;
    };
    const { key } = await t.admin.apiKeys.create({ name: 'follower', api_key_scopes: [{ controller: '*', action: '*' }] });
    const follower = createClient({ baseUrl: t.server.url, auth: { apiKey: key }, fetch: recording });

    const started = await follower.nasShares.scan(big.id);
    answers.length = 0;
    const seen: Job[] = [];
    const finished = await follower.jobs.follow(started.id, { onProgress: (job) => seen.push(job), timeoutMs: 20_000 });
    expect(finished).toMatchObject({
      job_id: started.id,
      kind: 'share_scan',
      status: 'completed',
      file_count: files,
      file_size_sum: files,
      requester: 'follower',
    });

    // onProgress saw the first answer and then every answer that differed from the one before.
    const distinct = answers.filter((answer, i) => i === 0 || JSON.stringify(answer) !== JSON.stringify(answers[i - 1]));
    expect(seen).toEqual(distinct);
    expect(seen.at(-1)).toEqual(finished);
    // The counts so far only grow; a scan this small may finish within one progress interval
    // (250 ms), so how many answers come between its start and its end is not asserted.
    const counts = seen.flatMap((job) => (job.file_count === undefined ? [] : [job.file_count]));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts.at(-1)).toBe(files);
  });

  it('rejects follow() of a failed job with DmsJobFailedError carrying the job', async () => {
    const broken = await t.dms.nasShares.test(nas.id, { name: 'missing', path: 'does/not/exist' });
    const failure = await t.dms.jobs.follow(broken.id).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ name: 'DmsJobFailedError', jobId: broken.id, job: { kind: 'share_test', status: 'failed', requester: keyName } });
  });
});

describe('audit events', () => {
  it('records a change made through the SDK: who, through REST, from where, which fields', async () => {
    const [latest] = (await t.admin.auditEvents.list({ limit: 1 })).audit_events;
    const nas = await t.admin.nas.create({ name: 'nas-audited', host: 'nas.example.com', type: 'smb_v3' });
    await t.admin.nas.update(nas.id, { comment: 'second floor' });
    const share = await t.admin.nasShares.create(nas.id, { name: 'audited', path: 'audited', username: 'backup', password: 's3cret' });
    await t.admin.nasShares.update(share.id, { password: 'n3w-s3cret' });

    const onNas = await t.admin.auditEvents.list({ filter: { resource_type: 'nas', resource_id: String(nas.id) }, sortBy: 'id:asc' });
    expect(onNas.count).toBe(2);
    const [created, updated] = onNas.audit_events;
    expect(created).toMatchObject({
      action: 'create',
      via: 'rest',
      actor: { kind: 'user', name: 'admin', id: expect.any(Number) },
      resource: { type: 'nas', id: String(nas.id), name: 'nas-audited' },
      client_address: '127.0.0.1',
      request_id: expect.any(String),
      outcome: 'success',
    });
    expect(created!.id).toBeGreaterThan(latest!.id);
    expect(updated).toMatchObject({ action: 'update', changes: { comment: { from: null, to: 'second floor' } } });

    // A secret's change is recorded as changed, never with a value.
    const [passwordChange] = (await t.admin.auditEvents.list({ filter: { resource_type: 'nas_shares', resource_id: String(share.id), action: 'update' } }))
      .audit_events;
    expect(passwordChange?.changes).toEqual({ password: 'changed' });
    expect(JSON.stringify(passwordChange)).not.toContain('s3cret');

    // Every event of the admin since the first, page after page; newest first.
    const mine = await collect(t.admin.auditEvents.listAll({ filter: { actor: 'admin', id: gt(latest!.id) }, limit: 2 }));
    expect(mine.map((event) => `${event.action} ${event.resource?.type}`)).toEqual(['update nas_shares', 'create nas_shares', 'update nas', 'create nas']);
    expect(mine.every((event) => event.via === 'rest' && event.actor.name === 'admin')).toBe(true);
    expect((await t.admin.auditEvents.list({ filter: { actor: 'admin', at: gte(created!.at) } })).count).toBeGreaterThanOrEqual(4);
  });

  it('records a change made with an API key under the key', async () => {
    const trap = await t.dms.snmp.traps.create({ manager: 'nms.example.com:162' });
    const { audit_events } = await t.admin.auditEvents.list({ filter: { resource_type: 'traps', action: 'create' } });
    expect(audit_events.find((event) => event.resource?.id === String(trap.snmp_trap_id))).toMatchObject({
      actor: { kind: 'api_key', name: keyName },
      via: 'rest',
    });
  });

  it('is 403 for a user who is not an administrator, as a model error', async () => {
    await t.admin.users.create({ username: 'not-admin', password: 'a-long-password' });
    const user = t.client({ auth: { basic: { username: 'not-admin', password: 'a-long-password' } } });
    const refusal = await user.auditEvents.list().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(DmsApiError);
    expect(refusal).toMatchObject({ status: 403, kind: 'forbidden', requestId: expect.any(String) });
    expect((refusal as DmsApiError).messages.length).toBeGreaterThan(0);
    // The admin still reads it.
    expect((await t.client({ auth: { basic: { username: 'admin', password: adminPassword } } }).auditEvents.list({ limit: 1 })).count).toBeGreaterThan(0);
  });
});
