import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { dmsProgram } from '../src/commands.js';
import { cli } from './support/cli-run.js';

/** Every command that runs something, as typed after `dms`. */
const commandPaths = [
  'serve',
  'migrate',
  'check',
  'backup',
  'restore',
  'version',
  'user add',
  'user list',
  'user passwd',
  'user role',
  'apikey create',
  'apikey list',
  'apikey revoke',
  'cors add',
  'cors list',
  'cors rm',
  'jwt enable',
  'jwt disable',
  'nas list',
  'nas add',
  'nas rm',
  'shares list',
  'shares add',
  'shares rm',
  'shares du',
  'shares test',
  'shares scan',
  'jobs list',
  'audit list',
  'alerts list',
  'alerts dismiss',
  'channels list',
  'channels test',
  'silence list',
  'silence add',
  'silence delete',
  'schedules list',
  'schedules add',
  'schedules rm',
  'snmp agent show',
  'snmp agent set',
];

function leaves(command: Command, prefix: string[] = []): string[] {
  return command.commands.flatMap((sub) => {
    const path = [...prefix, sub.name()];
    return sub.commands.length === 0 ? [path.join(' ')] : leaves(sub, path);
  });
}

describe('dms --help (docs/decisions/137-cli-library-and-help.md)', () => {
  it('issue 45: the list above is every command of the tree', () => {
    expect(
      leaves(
        dmsProgram(
          () => undefined,
          () => undefined,
        ),
      ).sort(),
    ).toEqual([...commandPaths].sort());
  });

  it.each(commandPaths)('issue 45: dms %s --help prints its own usage and exits 0, touching no data dir', async (path) => {
    const words = path.split(' ');
    const { code, lines, errors } = await cli(...words, '--help');
    expect(errors).toBe('');
    expect(code).toBe(0);
    expect(lines.join('\n')).toMatch(new RegExp(`^Usage: dms ${path} `));
    const viaHelp = await cli('help', ...words);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.lines.join('\n')).toMatch(new RegExp(`^Usage: dms ${words[0]}(\\|\\w+)? `));
  });

  it('issue 45: dms --help and dms help list the commands; dms alone lists them and exits 1', async () => {
    for (const argv of [['--help'], ['help'], ['-h']]) {
      const { code, lines } = await cli(...argv);
      expect(code).toBe(0);
      expect(lines.join('\n')).toContain('restore <FILE>');
    }
    const bare = await cli();
    expect(bare.code).toBe(1);
    expect(bare.lines.join('\n')).toContain('Usage: dms');
  });

  it('issue 45: a command group without its subcommand, an unknown option or command, exits 1 naming it', async () => {
    expect((await cli('nas')).code).toBe(1);
    const unknown = await cli('restore', 'x.sqlite', '--frobnicate');
    expect(unknown.code).toBe(1);
    expect(unknown.errors).toContain('unknown option --frobnicate; the options are none');
    const typo = await cli('nas', 'lst');
    expect(typo.code).toBe(1);
    expect(typo.errors).toContain('list');
  });
});
