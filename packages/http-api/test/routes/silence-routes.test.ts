import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal, type Alert, type Silence } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addSilence, expectModelError, readJson, unique } from '../../src/testing/fixtures.js';

/**
 * /silences (issue 44, docs/api.md#silences) over REST: the CRUD of the list contract, who made
 * it, each refusal saying what is allowed, and alerts answering `silenced`.
 */
const api = (path: string) => `/api/v2${path}`;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (body: unknown) => t.call('POST', api('/silences'), { auth: t.basic, body });
const future = '2099-01-01T00:00:00Z';

describe('silences', () => {
  it('created by the signed-in user, listed newest first with its filters, updated, deleted', async () => {
    const reason = unique('moving the rack');
    const res = await post({ matchers: { resource_type: 'traps', resource_id: '77' }, ends_at: future, reason, created_by: 99, active: false });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = await readJson<Silence>(res);
    const admin = (await t.core.users.list(systemPrincipal, { username: ['admin'] })).users[0]!;
    expect(created).toMatchObject({
      matchers: { resource_type: 'traps', resource_id: '77' },
      ends_at: '2099-01-01T00:00:00.000Z',
      rrule: null,
      until_cleared: false,
      reason,
      created_by: admin.id,
      active: true,
    });
    const second = await addSilence(t);
    const listed = await readJson<{ count: number; silences: Silence[] }>(await t.call('GET', api('/silences?limit=1'), { auth: t.basic }));
    expect(listed.silences[0]!.id).toBe(second.id);
    expect(listed.count).toBeGreaterThanOrEqual(2);
    const filtered = await readJson<{ silences: Silence[] }>(await t.call('GET', api(`/silences?id=${created.id}&until_cleared=false`), { auth: t.basic }));
    expect(filtered.silences.map((s) => s.id)).toEqual([created.id]);
    await expectModelError(await t.call('GET', api('/silences?reason=x'), { auth: t.basic }), 400, 'reason');

    const updated = await t.call('PUT', api(`/silences/${created.id}`), {
      auth: t.basic,
      body: { ends_at: null, rrule: 'DTSTART:20261129T020000Z\nRRULE:FREQ=WEEKLY;BYDAY=SU', duration_seconds: 7200 },
    });
    expect(updated.status, await updated.clone().text()).toBe(200);
    expect(await readJson<Silence>(updated)).toMatchObject({ ends_at: null, duration_seconds: 7200, window_ends_at: expect.stringMatching(/T04:00:00.000Z$/) });
    expect((await t.call('DELETE', api(`/silences/${created.id}`), { auth: t.basic })).status).toBe(204);
    await expectModelError(await t.call('GET', api(`/silences/${created.id}`), { auth: t.basic }), 404, 'silence_id');
  });

  it.each([
    [{ ends_at: future, until_cleared: true }, 'ends_at', /exactly one of ends_at/],
    [{ starts_at: '2098-01-02T00:00:00Z', ends_at: '2098-01-01T00:00:00Z' }, 'ends_at', /must be after starts_at/],
    [{ ends_at: '2001-01-01T00:00:00Z' }, 'ends_at', /already past/],
    [{ rrule: 'DTSTART:20261129T020000Z\nRRULE:FREQ=WEEKLY' }, 'duration_seconds', /needs duration_seconds/],
    [{ rrule: 'DTSTART:20261129T020000Z\nRRULE:FREQ=MINUTELY', duration_seconds: 600 }, 'rrule', /rrule/],
    [{ rrule: 'DTSTART:20261129T020000Z\nRRULE:FREQ=WEEKLY', duration_seconds: 10 }, 'duration_seconds', /60/],
    [{ matchers: {}, until_cleared: true }, 'matchers', /at least one matcher/],
    [{ matchers: { max_level: 9 }, until_cleared: true }, 'matchers.max_level', /5/],
    [{ matchers: { source: 'scan_failed', colour: 'red' }, until_cleared: true }, 'matchers.colour', /colour/],
  ])('refuses %j on %s with 422 saying why', async (body, field, message) => {
    const res = await post({ matchers: { source: 'scan_failed' }, reason: 'r', ...body });
    const error = await expectModelError(res, 422, field);
    expect(JSON.stringify(error)).toMatch(message);
  });

  it('an alert it matches answers silenced: true, filterable', async () => {
    const { id } = await addSilence(t, { matchers: { source: 'trap_target_unreachable', resource_id: '4242' } });
    await t.core.alerts.sight('trap_target_unreachable', { type: 'traps', id: '4242', name: 'nms' }, 'no answer');
    await t.core.alerts.sight('trap_target_unreachable', { type: 'traps', id: '4243', name: 'nms2' }, 'no answer');
    const read = async (query: string) =>
      (await readJson<{ alerts: Alert[] }>(await t.call('GET', api(`/alerts?source=trap_target_unreachable&${query}`), { auth: t.basic }))).alerts;
    expect((await read('silenced=true')).map((a) => a.resource?.id)).toEqual(['4242']);
    expect((await read('silenced=false')).map((a) => a.resource?.id)).toEqual(['4243']);
    await t.call('DELETE', api(`/silences/${id}`), { auth: t.basic });
    expect(await read('silenced=true')).toEqual([]);
  });
});
