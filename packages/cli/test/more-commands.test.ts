import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemPrincipal } from '@dms/core';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openForCommand, readConfig } from '@dms/http-api';
import { cli, migratedDataDir } from './support/cli-run.js';

/** `dms nas rm`, `dms shares rm`, `dms alerts list|dismiss`, `dms channels list|test`, `dms schedules list|add|rm`, on a real SQLite data dir. */

function rowsOf(lines: string[]): Array<Record<string, string>> {
  const [header, ...rows] = lines.map((line) => line.split('\t'));
  return rows.map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index] ?? ''])));
}

const rule = 'DTSTART:20261125T120000Z\\nRRULE:FREQ=DAILY';

describe('dms nas rm, shares rm, alerts, schedules', () => {
  migratedDataDir('sqlite', { prefix: 'dms-cli-more-', prepare: (dir) => mkdirSync(join(dir, 'shares', 'media'), { recursive: true }) });

  it('issue 45: dms schedules add, list and rm, by share, NAS or every share; bad input refused with exit 1', async () => {
    expect((await cli('nas', 'add', 'here', '--host', 'localhost', '--type', 'local')).code).toBe(0);
    expect((await cli('shares', 'add', 'here', 'media', '--path', 'media')).code).toBe(0);
    expect(await cli('schedules', 'list')).toEqual({ code: 0, lines: ['no schedules'], errors: '' });

    const added = await cli('schedules', 'add', '--name', 'nightly', '--action', 'scan', '--rrule', rule, '--share', 'media');
    expect(added.errors).toBe('');
    expect(added.lines).toEqual([expect.stringMatching(/^added schedule \d+ 'nightly' \(scan of shares \d+; next run 20\d\d-/)]);
    expect((await cli('schedules', 'add', '--name', 'tests', '--action', 'test', '--rrule', rule, '--nas', 'here')).code).toBe(0);
    expect((await cli('schedules', 'add', '--name', 'everything', '--action', 'test', '--rrule', rule, '--all')).code).toBe(0);
    const listed = await cli('schedules', 'list');
    expect(listed.lines[0]).toBe('id\tname\taction\ttarget\trrule\tenabled\tnext\tlast run');
    expect(rowsOf(listed.lines)).toEqual([
      expect.objectContaining({
        name: 'nightly',
        action: 'scan',
        target: expect.stringMatching(/^shares \d+$/),
        rrule: 'DTSTART:20261125T120000Z RRULE:FREQ=DAILY',
        enabled: 'yes',
      }),
      expect.objectContaining({ name: 'tests', target: expect.stringMatching(/^nas \d+$/) }),
      expect.objectContaining({ name: 'everything', target: 'all shares' }),
    ]);

    const refusals: Array<[string[], string]> = [
      [['--action', 'scan', '--rrule', rule, '--all'], '--name is required'],
      [['--name', 'x', '--action', 'backup', '--rrule', rule, '--all'], "--action 'backup' must be one of test, scan"],
      [['--name', 'x', '--action', 'scan', '--all'], '--rrule is required'],
      [['--name', 'x', '--action', 'scan', '--rrule', rule], 'name one target'],
      [['--name', 'x', '--action', 'scan', '--rrule', rule, '--all', '--nas', 'here'], 'name one target'],
      [['--name', 'x', '--action', 'scan', '--rrule', rule, '--share', 'nowhere'], 'nowhere'],
      [['--name', 'x', '--action', 'scan', '--rrule', 'DTSTART:20261125T120000Z\\nRRULE:FREQ=MINUTLY', '--all'], 'rrule'],
      [['--name', 'nightly', '--action', 'scan', '--rrule', rule, '--all'], 'taken'],
    ];
    for (const [argv, message] of refusals) {
      const refused = await cli('schedules', 'add', ...argv);
      expect(refused.code, argv.join(' ')).toBe(1);
      expect(refused.errors, argv.join(' ')).toContain(message);
    }

    // A share or NAS a schedule names is not deleted; the refusal says why.
    const kept = await cli('shares', 'rm', 'media');
    expect(kept.code).toBe(1);
    expect(kept.errors).toContain('nightly');
    expect((await cli('schedules', 'rm', 'nowhere')).code).toBe(1);
    for (const name of ['nightly', 'tests', 'everything']) {
      const removed = await cli('schedules', 'rm', name);
      expect(removed.lines).toEqual([expect.stringMatching(new RegExp(`^deleted schedule \\d+ '${name}'$`))]);
    }
    expect((await cli('schedules', 'list')).lines).toEqual(['no schedules']);
  });

  it('issue 45: dms shares rm and dms nas rm delete by name, audited via cli; a NAS with shares and an unknown name are refused', async () => {
    const withShares = await cli('nas', 'rm', 'here');
    expect(withShares.code).toBe(1);
    expect(withShares.errors).toContain('still has 1 share(s)');
    const share = await cli('shares', 'rm', 'media');
    expect(share.errors).toBe('');
    expect(share.lines).toEqual([expect.stringMatching(/^deleted share \d+ 'media'$/)]);
    expect((await cli('shares', 'list')).lines).toEqual(['no shares']);
    expect((await cli('shares', 'rm', 'media')).code).toBe(1);
    const nas = await cli('nas', 'rm', 'here');
    expect(nas.lines).toEqual([expect.stringMatching(/^deleted NAS \d+ 'here'$/)]);
    expect((await cli('nas', 'list')).lines).toEqual(['no NAS']);
    const missing = await cli('nas', 'rm', 'here');
    expect(missing.code).toBe(1);
    expect(missing.errors).toContain('here');
    const audited = rowsOf((await cli('audit', 'list', '--action', 'delete')).lines);
    expect(audited.map((row) => [row['resource'], row['via']])).toEqual(
      expect.arrayContaining([
        [expect.stringContaining("'here'"), 'cli'],
        [expect.stringContaining("'media'"), 'cli'],
      ]),
    );
  });

  it('issue 45: dms alerts list shows the open alerts in a table; dms alerts dismiss marks one seen; a bad id exits 1', async () => {
    expect(await cli('alerts', 'list')).toEqual({ code: 0, lines: ['no open alerts'], errors: '' });
    const dms = await openForCommand(readConfig());
    try {
      await dms.core.alerts.sight('scan_failed', { type: 'nas_shares', id: '7', name: 'media' }, 'the scan of media failed');
      await dms.core.alerts.sight('share_unreachable', { type: 'nas_shares', id: '8', name: 'gone' }, 'gone cannot be reached');
      await dms.core.alerts.clear('share_unreachable', { type: 'nas_shares', id: '8', name: 'gone' });
    } finally {
      await dms.close();
    }
    const listed = await cli('alerts', 'list');
    expect(listed.lines[0]).toBe('id\tlevel\tsource\tabout\tmessage\traised\tdismissed');
    const rows = rowsOf(listed.lines);
    expect(rows).toEqual([
      expect.objectContaining({ level: '3', source: 'scan_failed', about: 'nas_shares/media', message: 'the scan of media failed', dismissed: 'no' }),
    ]);
    const dismissed = await cli('alerts', 'dismiss', rows[0]!['id']!);
    expect(dismissed.lines).toEqual([`dismissed alert ${rows[0]!['id']} (scan_failed: the scan of media failed)`]);
    expect(rowsOf((await cli('alerts', 'list')).lines)).toEqual([expect.objectContaining({ dismissed: 'yes' })]);
    for (const id of ['999', 'abc']) {
      const refused = await cli('alerts', 'dismiss', id);
      expect(refused.code).toBe(1);
      expect(refused.errors).toMatch(/alert/);
    }
  });

  it('issue 44: dms channels list shows the channels without a secret; dms channels test answers the outcome, exit 1 when it failed', async () => {
    expect(await cli('channels', 'list')).toEqual({ code: 0, lines: ['no notification channels'], errors: '' });
    const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const dms = await openForCommand(readConfig());
    try {
      const { port } = receiver.address() as AddressInfo;
      await dms.core.notificationChannels.create(systemPrincipal, { name: 'ops', type: 'slack', settings: { url: `http://127.0.0.1:${port}/hook` } });
      await dms.core.notificationChannels.create(systemPrincipal, {
        name: 'mail',
        type: 'email',
        min_level: 4,
        sources: ['share_unreachable'],
        settings: { host: '127.0.0.1', port: 4, username: 'u', password: 'cli-secret-pw', from: 'd@example.com', to: ['o@example.com'] },
      });
    } finally {
      await dms.close();
    }
    const listed = await cli('channels', 'list');
    expect(listed.lines[0]).toBe('id\tname\ttype\tenabled\tmin level\tsources\tfailing since');
    expect(rowsOf(listed.lines)).toEqual([
      expect.objectContaining({ name: 'ops', type: 'slack', enabled: 'yes', 'min level': '3', sources: 'all', 'failing since': '-' }),
      expect.objectContaining({ name: 'mail', type: 'email', 'min level': '4', sources: 'share_unreachable' }),
    ]);
    expect(listed.lines.join('\n')).not.toContain('cli-secret-pw');
    try {
      expect(await cli('channels', 'test', 'ops')).toEqual({ code: 0, lines: ['test message delivered (HTTP 204)'], errors: '' });
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
    const failed = await cli('channels', 'test', 'mail');
    expect(failed.code).toBe(1);
    expect(failed.lines).toEqual([expect.stringMatching(/^test message failed: .*ECONNREFUSED/)]);
    expect((await cli('channels', 'test', 'nowhere')).code).toBe(1);
  });
});
