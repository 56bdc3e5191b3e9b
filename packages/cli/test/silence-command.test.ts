import { describe, expect, it } from 'vitest';
import { cli, migratedDataDir } from './support/cli-run.js';

/** `dms silence add|list|delete` (issue 44, docs/api.md#silences) on a real SQLite data dir. */

function rowsOf(lines: string[]): Array<Record<string, string>> {
  const [header, ...rows] = lines.map((line) => line.split('\t'));
  return rows.map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index] ?? ''])));
}

describe('dms silence', () => {
  migratedDataDir('sqlite', { prefix: 'dms-cli-silence-' });

  it('issue 44: adds silences for a while, until a date, until cleared and in a weekly window; lists them; deletes one; refuses with exit 1', async () => {
    expect(await cli('silence', 'list')).toEqual({ code: 0, lines: ['no silences'], errors: '' });
    expect((await cli('nas', 'add', 'filer', '--host', 'localhost', '--type', 'local')).code).toBe(0);

    const forAnHour = await cli('silence', 'add', '--nas', 'filer', '--max-level', '3', '--for', '1h', '--reason', 'controller swap');
    expect(forAnHour.errors).toBe('');
    expect(forAnHour.lines).toEqual([expect.stringMatching(/^added silence \d+ \(nas_id=\d+ max_level=3; holding now, ends 20\d\d-.*Z\)$/)]);
    expect((await cli('silence', 'add', '--source', 'scan_failed', '--until', '2099-01-01T06:00', '--reason', 'r')).code).toBe(0);
    expect(
      (await cli('silence', 'add', '--source', 'share_unreachable', '--resource-type', 'nas_shares', '--resource-id', '7', '--until-cleared', '--reason', 'r'))
        .code,
    ).toBe(0);
    const weekly = await cli(
      'silence',
      'add',
      '--source',
      'scan_failed',
      '--rrule',
      'DTSTART:20261129T020000Z\\nRRULE:FREQ=WEEKLY;BYDAY=SU',
      '--duration',
      '2h',
      '--reason',
      'backup window',
    );
    expect(weekly.errors).toBe('');

    const listed = await cli('silence', 'list');
    expect(listed.lines[0]).toBe('id\tmatchers\tstarts\tends\tactive\treason');
    expect(rowsOf(listed.lines).map((row) => [row['matchers'], row['ends'], row['active']])).toEqual([
      ['source=scan_failed', 'DTSTART:20261129T020000Z RRULE:FREQ=WEEKLY;BYDAY=SU for 7200s', expect.stringMatching(/^(yes|no)$/)],
      ['source=share_unreachable resource_type=nas_shares resource_id=7', 'until cleared', 'yes'],
      ['source=scan_failed', '2099-01-01T06:00:00.000Z', 'yes'],
      [expect.stringMatching(/^nas_id=\d+ max_level=3$/), expect.stringMatching(/Z$/), 'yes'],
    ]);

    const refusals: Array<[string[], string]> = [
      [['--source', 'scan_failed', '--for', '1h'], '--reason is required'],
      [['--source', 'scan_failed', '--reason', 'r'], 'exactly one of --for 1h'],
      [['--source', 'scan_failed', '--for', '1h', '--until-cleared', '--reason', 'r'], 'exactly one of'],
      [['--source', 'scan_failed', '--for', 'an hour', '--reason', 'r'], "--for 'an hour' is not a duration"],
      [['--source', 'scan_failed', '--until', 'tomorrow', '--reason', 'r'], "--until 'tomorrow' is not an ISO 8601 date"],
      [['--source', 'scan_failed', '--rrule', 'DTSTART:20261129T020000Z\\nRRULE:FREQ=DAILY', '--reason', 'r'], '--rrule needs --duration'],
      [['--for', '1h', '--reason', 'r'], 'at least one matcher'],
      [['--nas', 'nowhere', '--for', '1h', '--reason', 'r'], 'nowhere'],
      [['--source', 'scan_failed', '--until', '2001-01-01', '--reason', 'r'], 'already past'],
    ];
    for (const [argv, message] of refusals) {
      const refused = await cli('silence', 'add', ...argv);
      expect(refused.code, argv.join(' ')).toBe(1);
      expect(refused.errors, argv.join(' ')).toContain(message);
    }

    const id = rowsOf(listed.lines)[0]!['id']!;
    expect(await cli('silence', 'delete', id)).toEqual({ code: 0, lines: [`deleted silence ${id}`], errors: '' });
    expect(rowsOf((await cli('silence', 'list')).lines)).toHaveLength(3);
    expect((await cli('silence', 'delete', id)).code).toBe(1);
  });
});
