import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDms, type Dms } from '../runtime/open-dms.js';
import { systemPrincipal } from '../scopes/principal.js';
import { requireTools } from '../testing/require-tool.js';
import { freePort } from '../testing/fixture-support.js';
import { pollUntil } from '../testing/poll-until.js';
import { alertmanagerAlerts } from '../adapters/notify/alertmanager-channel.js';

/**
 * The alertmanager channel (issue 44) against Debian's Alertmanager, started by the test on
 * 127.0.0.1: an alert raised fires there with dms's labels, is sent again while open, and is
 * resolved by its clear.
 */
const tools = requireTools(['prometheus-alertmanager'], 'apt-get install prometheus-alertmanager');

interface AmAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  updatedAt: string;
  status: { state: string };
}

let dir: string;
let alertmanager: ChildProcess | undefined;
let url = '';
let dms: Dms;
/** A minute behind the wall clock at first, then brought to it: the Alertmanager compares endsAt with its own clock. */
let now = new Date(Date.now() - 61_000);
const amAlerts = async (): Promise<AmAlert[]> => (await (await fetch(`${url}/api/v2/alerts`)).json()) as AmAlert[];

beforeAll(async () => {
  if (!tools.ok) return;
  dir = mkdtempSync(join(tmpdir(), 'dms-alertmanager-'));
  writeFileSync(join(dir, 'alertmanager.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  alertmanager = spawn(
    tools.paths['prometheus-alertmanager']!,
    [`--config.file=${join(dir, 'alertmanager.yml')}`, `--storage.path=${dir}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address='],
    { stdio: 'ignore' },
  );
  await pollUntil(async () => (await fetch(`${url}/-/ready`)).ok, Boolean, 'the Alertmanager ready');
  dms = await openDms({
    role: 'command',
    createDatabase: true,
    dataDir: dir,
    localRoots: [tmpdir()],
    trapSender: null,
    core: { clock: () => now },
  });
});
afterAll(async () => {
  if (!tools.ok) return;
  await dms.close();
  if (alertmanager && alertmanager.exitCode === null) {
    // Gone before its directory is removed: it writes there until it exits.
    const exited = new Promise((resolve) => alertmanager!.once('exit', resolve));
    alertmanager.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!tools.ok)('alertmanager channel', () => {
  it('an alert fires with its labels, is sent again while open, and resolves when cleared; a silenced one is not sent', async () => {
    await dms.core.notificationChannels.create(systemPrincipal, { name: 'am', type: 'alertmanager', min_level: 1, settings: { url } });
    const share = { type: 'nas_shares', id: '21', name: 'archive' };
    await dms.core.alerts.sight('share_unreachable', share, 'connection refused');
    await dms.notifications.runOnce();
    const [firing] = await pollUntil(amAlerts, (alerts) => alerts.length === 1, 'the alert in the Alertmanager');
    expect(firing!.labels).toEqual({ alertname: 'share_unreachable', source: 'share_unreachable', severity: 'error', resource: 'nas_shares/21' });
    expect(firing!.annotations).toMatchObject({ resource_name: 'archive', description: 'connection refused' });
    expect(firing!.status.state).toBe('active');
    // A minute on: the open alert is sent again, so the Alertmanager does not resolve it by itself.
    now = new Date(Math.max(Date.now(), now.getTime() + 60_000));
    await dms.notifications.runOnce();
    await pollUntil(amAlerts, (alerts) => alerts.length === 1 && alerts[0]!.updatedAt > firing!.updatedAt, 'the alert sent again');
    await dms.core.alerts.clear('share_unreachable', share);
    await dms.notifications.runOnce();
    // Resolved: the Alertmanager lists active alerts only.
    await pollUntil(amAlerts, (alerts) => alerts.length === 0, 'the alert resolved');
    expect(await dms.core.notificationChannels.test(systemPrincipal, 'am')).toEqual({ outcome: 'delivered', status_code: 200, error: null });
    const test = await pollUntil(amAlerts, (alerts) => alerts.length === 1, 'the test alert');
    expect(test[0]!.labels).toMatchObject({ alertname: 'dms_test', source: 'test' });

    // Silenced (docs/decisions/171-silences.md): neither sent nor sent again each minute; told once the silence is deleted.
    const silence = await dms.core.silences.create(systemPrincipal, { matchers: { source: 'scan_failed' }, until_cleared: true, reason: 'known' });
    await dms.core.alerts.sight('scan_failed', { type: 'nas_shares', id: '22', name: 'media' }, 'scan failed');
    await dms.notifications.runOnce();
    now = new Date(Math.max(Date.now(), now.getTime() + 60_000));
    await dms.notifications.runOnce();
    expect((await amAlerts()).map((alert) => alert.labels['alertname'])).toEqual(['dms_test']);
    await dms.core.silences.destroy(systemPrincipal, String(silence.id));
    await dms.notifications.runOnce();
    await pollUntil(amAlerts, (alerts) => alerts.some((alert) => alert.labels['alertname'] === 'scan_failed'), 'the alert told once its silence is over');
  });
});

describe('alertmanagerAlerts', () => {
  it('a change of level resolves the alert at the old severity and fires it at the new one', () => {
    const alert = {
      id: 4,
      source: 'share_nearly_full',
      level: 4 as const,
      resource: { type: 'nas_shares', id: '3', name: 'home' },
      message: 'used 93 %',
      raised_at: '2026-11-28T08:00:00.000Z',
      cleared_at: null,
      previous_level: 3 as const,
    };
    const alerts = alertmanagerAlerts({
      id: 'evt_9',
      type: 'alert.updated',
      timestamp: '2026-11-28T09:00:00.000Z',
      level: 4,
      source: 'share_nearly_full',
      title: 't',
      text: 'used 93 %',
      data: { alert },
    });
    expect(alerts.map((one) => [one.labels['severity'], one.startsAt, one.endsAt])).toEqual([
      ['warning', '2026-11-28T08:00:00.000Z', '2026-11-28T09:00:00.000Z'],
      ['error', '2026-11-28T08:00:00.000Z', undefined],
    ]);
  });
});
