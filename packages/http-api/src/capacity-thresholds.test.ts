import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '@dms/core';
import { createTestApp, type TestApp } from './testing/test-app.js';
import { addNas, addShare, expectModelError, readJson, type NasShare } from './testing/fixtures.js';

/**
 * A share's own `share_nearly_full` thresholds (docs/decisions/142-capacity-thresholds-per-share.md),
 * on both adapters (vitest projects sqlite and postgres): validated at the edge, stored, and used by
 * the alert watch instead of the source's `/alert_settings` after a real test of a local share.
 */

const api = (path: string) => `/api/v2${path}`;

describe('capacity thresholds per share', () => {
  let t: TestApp;
  let root: string;
  let share: NasShare;

  async function put(body: unknown): Promise<Response> {
    return t.call('PUT', api(`/nas_shares/${share.id}`), { auth: t.basic, body });
  }

  /** Tests the share over REST (which reads its capacity) and waits for the alert watch. */
  async function testShare(): Promise<NasShare> {
    const started = await t.call('PUT', api(`/nas_shares/${share.id}/test`), { auth: t.basic });
    expect(started.status, await started.clone().text()).toBe(202);
    const { job_id: jobId } = await readJson<{ job_id: string }>(started);
    for (;;) {
      const res = await t.call('GET', api(`/jobs/${jobId}?wait=10`), { auth: t.basic });
      if (res.status === 200) break;
      expect(res.status).toBe(202);
    }
    await t.alertWatch.settled();
    return readJson<NasShare>(await t.call('GET', api(`/nas_shares/${share.id}`), { auth: t.basic }));
  }

  async function nearlyFull(): Promise<Alert[]> {
    await t.alertWatch.settled();
    const res = await t.call('GET', api(`/alerts?source=share_nearly_full&resource_id=${share.id}&cleared_at=null`), { auth: t.basic });
    return (await readJson<{ alerts: Alert[] }>(res)).alerts;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-thresholds-'));
    mkdirSync(join(root, 'data'));
    t = await createTestApp({ localRoots: [root] });
    share = await addShare(t, await addNas(t, { type: 'local', host: 'localhost' }), { path: 'data' });
    await t.engine.start();
    t.alertWatch.start();
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("issue 42 item 4: a share's thresholds are 1-100, the critical one not below the warning one (as stored), null by default", async () => {
    expect(share).toMatchObject({ capacity_warning_percent: null, capacity_critical_percent: null });
    await expectModelError(await put({ capacity_warning_percent: 0 }), 422, 'capacity_warning_percent');
    await expectModelError(await put({ capacity_critical_percent: 101 }), 422, 'capacity_critical_percent');
    await expectModelError(await put({ capacity_warning_percent: 50.5 }), 422, 'capacity_warning_percent');
    await expectModelError(await put({ capacity_warning_percent: 95, capacity_critical_percent: 90 }), 422, 'capacity_critical_percent');
    const set = await put({ capacity_warning_percent: 70, capacity_critical_percent: 85 });
    expect(set.status, await set.clone().text()).toBe(200);
    expect(await readJson<NasShare>(set)).toMatchObject({ capacity_warning_percent: 70, capacity_critical_percent: 85 });
    // Checked against the stored other half.
    await expectModelError(await put({ capacity_warning_percent: 86 }), 422, 'capacity_critical_percent');
    const cleared = await readJson<NasShare>(await put({ capacity_warning_percent: null, capacity_critical_percent: null }));
    expect(cleared).toMatchObject({ capacity_warning_percent: null, capacity_critical_percent: null });
    // At creation too.
    const nas = await addNas(t, { type: 'local', host: 'localhost' });
    const created = await t.call('POST', api(`/nas/${nas.id}/nas_shares`), {
      auth: t.basic,
      body: { name: 'thresholds-at-creation', path: 'data', capacity_warning_percent: 60, capacity_critical_percent: 75 },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect(await readJson<NasShare>(created)).toMatchObject({ capacity_warning_percent: 60, capacity_critical_percent: 75 });
    await expectModelError(
      await t.call('POST', api(`/nas/${nas.id}/nas_shares`), {
        auth: t.basic,
        body: { name: 'crossed', path: 'data', capacity_warning_percent: 80, capacity_critical_percent: 70 },
      }),
      422,
      'capacity_critical_percent',
    );
  });

  it("issue 42 item 4: the alert watch uses the share's own thresholds, each falling back to the source's", async () => {
    // The source's thresholds out of reach: only the share's own can raise the alert.
    const source = await t.call('PUT', api('/alert_settings/share_nearly_full'), { auth: t.basic, body: { warning_percent: 100, critical_percent: 100 } });
    expect(source.status, await source.clone().text()).toBe(200);
    const read = await testShare();
    expect(read.used_percent).not.toBeNull();
    expect(read.used_percent!).toBeGreaterThanOrEqual(1);
    expect(read.used_percent!).toBeLessThan(100);
    expect(await nearlyFull()).toEqual([]);

    await put({ capacity_warning_percent: 1 });
    await testShare();
    const [warning] = await nearlyFull();
    expect(warning).toMatchObject({ level: 3 });
    expect(warning!.message).toContain('threshold 1 %');

    await put({ capacity_critical_percent: 1 });
    await testShare();
    expect(await nearlyFull()).toMatchObject([{ level: 4 }]);

    await put({ capacity_warning_percent: null, capacity_critical_percent: null });
    await testShare();
    expect(await nearlyFull()).toEqual([]);
  });
});
