import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import type { ActiveJobStatus } from '@dms/core';
import type { AppCaller } from '../src/main/router/index.js';
import { adminPassword, openTestDesktop, type TestDesktop } from './test-desktop.js';

let t: TestDesktop;
let admin: AppCaller;

beforeAll(async () => {
  t = await openTestDesktop();
  admin = t.caller();
  await admin.auth.signIn({ username: 'admin', password: adminPassword });
});
afterAll(async () => {
  await t?.close();
});

/** The TRPCError a call rejects with, and what a client reads in its formatted `data`. */
async function failure(call: Promise<unknown>): Promise<{ code: string; domainCode?: string; details?: unknown }> {
  const error = await call.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpcError = error as TRPCError;
  const cause = trpcError.cause as { code?: string; details?: unknown } | undefined;
  return { code: trpcError.code, domainCode: cause?.code, details: cause?.details };
}

async function collect(iterable: AsyncIterable<ActiveJobStatus>): Promise<ActiveJobStatus[]> {
  const seen: ActiveJobStatus[] = [];
  for await (const job of iterable) seen.push(job);
  return seen;
}

describe('auth', () => {
  it('refuses every procedure but sign-in before sign-in (UNAUTHORIZED)', async () => {
    const anonymous = t.caller();
    expect(await anonymous.auth.me()).toBeNull();
    expect((await failure(anonymous.nas.list())).code).toBe('UNAUTHORIZED');
  });

  it('refuses a wrong password through the core (UNAUTHORIZED, domain code unauthenticated)', async () => {
    expect(await failure(t.caller().auth.signIn({ username: 'admin', password: 'wrong' }))).toMatchObject({
      code: 'UNAUTHORIZED',
      domainCode: 'unauthenticated',
    });
  });

  it('holds the signed-in user per session and forgets it on sign-out', async () => {
    const window = t.caller();
    expect(await window.auth.signIn({ username: 'admin', password: adminPassword })).toEqual({
      username: 'admin',
      admin: true,
      scopes: ['*/*', '*/get_password'],
    });
    expect(await window.auth.me()).toEqual({ username: 'admin', admin: true, scopes: ['*/*', '*/get_password'] });
    await window.auth.signOut();
    expect((await failure(window.overview.show())).code).toBe('UNAUTHORIZED');
  });
});

describe('nas', () => {
  it('creates, lists with the list query, shows, updates and deletes', async () => {
    const created = await admin.nas.create({ name: 'crud', host: 'localhost', type: 'local' });
    expect(created).toMatchObject({ name: 'crud', type: 'local' });
    await admin.nas.create({ name: 'crud-b', host: 'localhost', type: 'local' });
    const listed = await admin.nas.list({ sort_by: 'name:desc', name: '~crud%' });
    expect(listed.nas.map((n) => n.name)).toEqual(['crud-b', 'crud']);
    expect(listed.count).toBe(2);
    expect(await admin.nas.show({ nas: 'crud' })).toEqual(created);
    expect(await admin.nas.update({ nas: created.id, body: { comment: 'lab' } })).toMatchObject({ comment: 'lab' });
    await admin.nas.delete({ nas: 'crud' });
    await admin.nas.delete({ nas: 'crud-b' });
    expect(await failure(admin.nas.show({ nas: 'crud' }))).toMatchObject({ code: 'NOT_FOUND', domainCode: 'not_found' });
  });

  it('carries the field details of a core validation error (422 → BAD_REQUEST)', async () => {
    expect(await failure(admin.nas.create({ name: '', host: 'localhost', type: 'local' }))).toMatchObject({
      code: 'BAD_REQUEST',
      domainCode: 'validation',
      details: { name: [{ error: 'blank' }] },
    });
  });

  it('maps a taken name to CONFLICT and a bad list parameter to BAD_REQUEST', async () => {
    await admin.nas.create({ name: 'twice', host: 'localhost', type: 'local' });
    expect(await failure(admin.nas.create({ name: 'twice', host: 'localhost', type: 'local' }))).toMatchObject({
      code: 'CONFLICT',
      details: { name: [{ error: 'taken' }] },
    });
    expect(await failure(admin.nas.list({ bogus: '1' }))).toMatchObject({ code: 'BAD_REQUEST', domainCode: 'bad_request' });
    await admin.nas.delete({ nas: 'twice' });
  });
});

describe('pools and shares', () => {
  it('creates shares, joins a pool, lists by scope, updates and deletes', async () => {
    await admin.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
    const share = await admin.shares.create({ nas: 'filer', body: { name: 'projects', path: 'projects' } });
    expect(share).toMatchObject({ name: 'projects', file_count: 0, pool_id: null });
    const pool = await admin.pools.create({ name: 'hot', type: 'primary', content: 'nas' });
    expect(await admin.pools.update({ pool: 'hot', body: { nas_share_ids: [share.id] } })).toMatchObject({ nas_share_ids: [share.id] });
    expect(await admin.pools.list({ name: 'hot' })).toMatchObject({ count: 1 });
    expect(await admin.pools.show({ pool: pool.id })).toMatchObject({ name: 'hot' });

    const inPool = await admin.shares.list({ scope: { pool: 'hot' }, query: { limit: 10 } });
    expect(inPool.nas_shares.map((s) => s.id)).toEqual([share.id]);
    expect(await admin.shares.list({ scope: { nas: 'filer' } })).toMatchObject({ count: 1 });
    expect(await admin.shares.show({ scope: { nas: 'filer' }, share: 'projects' })).toMatchObject({ pool_id: pool.id });
    expect(await admin.shares.update({ share: share.id, body: { options: 'ro' } })).toMatchObject({ options: 'ro' });

    // A share addressed under a NAS it does not belong to is not found (docs/decisions/055-names.md).
    await admin.nas.create({ name: 'other', host: 'localhost', type: 'local' });
    expect((await failure(admin.shares.show({ scope: { nas: 'other' }, share: share.id }))).code).toBe('NOT_FOUND');

    await admin.pools.delete({ pool: 'hot' });
    await admin.shares.delete({ share: share.id });
    expect(await admin.shares.list({ scope: { nas: 'filer' } })).toMatchObject({ count: 0 });
  });

  it('gives share field errors with their details', async () => {
    expect(await failure(admin.shares.create({ nas: 'filer', body: { name: 'x', path: 'projects', options: 'ro, vers=3' } }))).toMatchObject({
      code: 'BAD_REQUEST',
      domainCode: 'validation',
      details: { options: [{ error: 'invalid' }] },
    });
  });
});

describe('jobs', () => {
  it('streams a local share test through jobs.progress until it is completed', async () => {
    const started = await admin.shares.testUnsaved({ nas: 'filer', body: { name: 'p', path: 'projects' } });
    expect(started).toMatchObject({ status: 'queued', total: 2 });
    const seen = await collect(await admin.jobs.progress({ jobId: started.job_id, nas: 'filer' }));
    expect(seen.at(-1)).toMatchObject({ status: 'completed', progress: 2, total: 2 });
    expect(await admin.jobs.status({ jobId: started.job_id, nas: 'filer' })).toMatchObject({ status: 'completed' });
  });

  it('streams a failing test to failed, with the reason', async () => {
    const started = await admin.shares.testUnsaved({ nas: 'filer', body: { name: 'p', path: 'no/such/dir' } });
    const seen = await collect(await admin.jobs.progress({ jobId: started.job_id, nas: 'filer' }));
    expect(seen.at(-1)).toMatchObject({ status: 'failed', message: expect.stringMatching(/no\/such\/dir/) });
  });

  it('refuses a progress subscription before sign-in, and an unknown job (NOT_FOUND)', async () => {
    expect((await failure(t.caller().jobs.progress({ jobId: 'x', nas: 'filer' }))).code).toBe('UNAUTHORIZED');
    // The first read is before streaming: the subscription itself is refused.
    expect(await failure(admin.jobs.progress({ jobId: '00000000-0000-0000-0000-000000000000', nas: 'filer' }))).toMatchObject({
      code: 'NOT_FOUND',
      domainCode: 'not_found',
    });
  });

  it('tests and scans a saved share, read back by share and kind', async () => {
    const share = await admin.shares.create({ nas: 'filer', body: { name: 'saved', path: 'projects' } });
    const test = await admin.shares.test({ share: share.id });
    const tested = await collect(await admin.jobs.progress({ jobId: test.job_id, share: share.id, kind: 'share_test' }));
    expect(tested.at(-1)).toMatchObject({ status: 'completed' });
    const scan = await admin.shares.scan({ scope: { nas: 'filer' }, share: 'saved' });
    const scanned = await collect(await admin.jobs.progress({ jobId: scan.job_id, share: share.id, kind: 'share_scan' }));
    expect(scanned.at(-1)).toMatchObject({ status: 'completed', file_count: 2, file_size_sum: 8 });
    // A job read under another share or kind is not found, as in REST.
    expect((await failure(admin.jobs.status({ jobId: scan.job_id, share: share.id, kind: 'share_test' }))).code).toBe('NOT_FOUND');
  });
});

describe('SNMP', () => {
  it('manages traps, sends a test trap, and configures the agent', async () => {
    const trap = await admin.traps.create({ manager: '127.0.0.1' });
    expect(trap).toMatchObject({ manager: '127.0.0.1', version: 'v2c' });
    expect(await admin.traps.list()).toMatchObject({ count: 1 });
    expect(await admin.traps.show({ trap: trap.snmp_trap_id })).toEqual(trap);
    expect(await admin.traps.update({ trap: trap.snmp_trap_id, body: { severity_low: 3 } })).toMatchObject({ severity_low: 3 });
    expect(await admin.traps.test({ trap: trap.snmp_trap_id })).toMatchObject({ snmp_trap_id: trap.snmp_trap_id });
    expect(await failure(admin.traps.update({ trap: trap.snmp_trap_id, body: { severity_low: 5, severity_high: 1 } }))).toMatchObject({
      code: 'BAD_REQUEST',
      domainCode: 'validation',
    });
    await admin.traps.delete({ trap: trap.snmp_trap_id });

    expect(await admin.snmpConfig.update({ location: 'rack 4' })).toMatchObject({ location: 'rack 4' });
    expect(await admin.snmpConfig.show()).toMatchObject({ location: 'rack 4' });
    expect(await admin.snmpConfig.agent()).toEqual({ state: 'off' });
  });
});

describe('administration', () => {
  it('manages users; a non-admin is FORBIDDEN from them', async () => {
    const user = await admin.users.create({ username: 'operator', password: 'a long enough password' });
    expect(await admin.users.list({ username: 'operator' })).toMatchObject({ count: 1 });
    expect(await admin.users.show({ user: user.id })).toMatchObject({ username: 'operator', admin: false });
    const operator = t.caller();
    await operator.auth.signIn({ username: 'operator', password: 'a long enough password' });
    expect(await failure(operator.users.list())).toMatchObject({ code: 'FORBIDDEN', domainCode: 'forbidden' });
    expect(await operator.nas.list()).toHaveProperty('count');
    expect(await admin.users.update({ user: 'operator', body: { admin: true } })).toMatchObject({ admin: true });
    await admin.users.delete({ user: 'operator' });
  });

  it('creates an API key shown once, then lists, shows, updates and revokes it', async () => {
    const key = await admin.apiKeys.create({ name: 'ci', api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    expect(key.key).toEqual(expect.any(String));
    const listed = await admin.apiKeys.list();
    expect(listed.api_keys.map((k) => k.name)).toContain('ci');
    expect(listed.api_keys[0]).not.toHaveProperty('key');
    expect(await admin.apiKeys.show({ apiKey: key.id })).toMatchObject({ name: 'ci' });
    expect(await admin.apiKeys.update({ apiKey: key.id, body: { name: 'ci-2' } })).toMatchObject({ name: 'ci-2' });
    await admin.apiKeys.delete({ apiKey: key.id });
    expect((await failure(admin.apiKeys.show({ apiKey: key.id }))).code).toBe('NOT_FOUND');
  });

  it('manages CORS rules, refusing the null origin with its field', async () => {
    const rule = await admin.corsRules.create({ origins: ['https://app.example.com'], methods: ['GET'] });
    expect(rule).toMatchObject({ path: '*' });
    expect(await admin.corsRules.list()).toMatchObject({ count: 1 });
    expect(await admin.corsRules.show({ corsRule: rule.id })).toEqual(rule);
    expect(await admin.corsRules.update({ corsRule: rule.id, body: { methods: ['GET', 'PUT'] } })).toMatchObject({ methods: ['GET', 'PUT'] });
    expect(await failure(admin.corsRules.create({ origins: ['null'], methods: ['GET'] }))).toMatchObject({ code: 'BAD_REQUEST', domainCode: 'validation' });
    await admin.corsRules.delete({ corsRule: rule.id });
  });

  it('shows and updates the settings', async () => {
    expect(await admin.settings.show()).toMatchObject({ jwt_enabled: false });
    expect(await admin.settings.update({ jwt_enabled: true })).toMatchObject({ jwt_enabled: true });
    expect(await failure(admin.settings.update({ jwt_ttl_seconds: 1 }))).toMatchObject({
      code: 'BAD_REQUEST',
      details: { jwt_ttl_seconds: expect.any(Array) },
    });
  });
});

describe('overview', () => {
  it('counts resources and jobs and reports the SNMP agent', async () => {
    const overview = await admin.overview.show();
    expect(overview.counts).toMatchObject({ nas: 2, pools: 0, nas_shares: 1, snmp_traps: 0 });
    expect(overview.jobs_by_status.completed).toBeGreaterThanOrEqual(3);
    expect(overview.jobs_by_status.failed).toBeGreaterThanOrEqual(1);
    expect(overview.snmp_agent).toEqual({ state: 'off' });
  });
});
