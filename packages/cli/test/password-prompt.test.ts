import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordCredential } from '@dms/core/runtime';
import { runCli } from '../src/commands.js';
import { readConfig } from '@dms/http-api';
import { openForCommand } from '@dms/http-api';

/**
 * Issue 25 item 5: `dms user add` and `dms user passwd` on a real terminal. python3's pty module
 * gives the command a pseudo-terminal, waits for each prompt before typing the answer (as a
 * person does), and hands back everything the terminal showed: the typed password must not be in it.
 */

const cliMain = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** Runs argv on a pty; for each [prompt, text] waits until the prompt shows, then types the text. Prints the screen, exits with the command's code. */
const ptyDriver = String.raw`
import json, os, pty, select, sys, time
steps = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
screen = b''
def read(deadline):
    global screen
    ready, _, _ = select.select([fd], [], [], max(0, deadline - time.time()))
    if not ready:
        return False
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        return None
    if not chunk:
        return None
    screen += chunk
    return True
seen = 0
for prompt, text in steps:
    deadline = time.time() + 120
    while screen.find(prompt.encode(), seen) < 0:
        if time.time() > deadline or read(deadline) is None:
            sys.stdout.buffer.write(screen)
            sys.stderr.write('no prompt ' + repr(prompt) + '\n')
            os.kill(pid, 9)
            sys.exit(99)
    seen = screen.find(prompt.encode(), seen) + len(prompt)
    os.write(fd, text.encode())
while read(time.time() + 120) is not None:
    pass
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(screen)
sys.exit(os.waitstatus_to_exitcode(status))
`;

function python(): string | undefined {
  try {
    execFileSync('python3', ['-c', 'import pty']);
    return undefined;
  } catch (error) {
    return `python3 with its pty module is needed to give dms a terminal: ${String(error)}`;
  }
}

const missing = python();
if (missing && process.env['CI'] === 'true') throw new Error(missing);
if (missing) console.warn(`[skip] the password prompt on a terminal: ${missing}`);

/** `dms ARGS` on a terminal, answering the prompts; its screen and exit code. A process started through tsx on a busy 2-core machine: minutes, hence the tests' timeouts. */
function onTerminal(args: string[], steps: Array<[prompt: string, typed: string]>): Promise<{ code: number; screen: string }> {
  return new Promise((resolve) => {
    execFile(
      'python3',
      ['-c', ptyDriver, JSON.stringify(steps), process.execPath, '--conditions=source', '--import', 'tsx', cliMain, ...args],
      { env: process.env },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, screen: stdout + stderr }),
    );
  });
}

describe.skipIf(missing !== undefined)('dms user add and passwd on a terminal', () => {
  const saved = { ...process.env };
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-cli-tty-'));
    process.env['DMS_DATA_DIR'] = dir;
    delete process.env['DMS_DATABASE_URL'];
    expect(await runCli(['migrate'], () => {})).toBe(0);
  });
  afterAll(() => {
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });

  async function signsIn(username: string, password: string): Promise<boolean> {
    const dms = await openForCommand(readConfig());
    try {
      await dms.core.auth.authenticate(passwordCredential(username, password));
      return true;
    } catch {
      return false;
    } finally {
      await dms.close();
    }
  }

  it('user add asks the password twice, shows none of it, and the user signs in with it', async () => {
    const typed = 'tty-typed-secret-1';
    const { code, screen } = await onTerminal(
      ['user', 'add', 'dave', '--admin'],
      [
        ['password of dave: ', `${typed}\r`],
        ['password of dave again: ', `${typed}\r`],
      ],
    );
    expect(code, screen).toBe(0);
    expect(screen).toContain('added user dave');
    expect(screen).not.toContain(typed);
    // Not a character of it either, nor an asterisk per character.
    expect(screen).not.toMatch(/tty-typed|\*{4}/);
    expect(await signsIn('dave', typed)).toBe(true);
  }, 300_000);

  it('user passwd refuses two different answers, changing nothing; then changes it, and only the new one signs in', async () => {
    const refused = await onTerminal(
      ['user', 'passwd', 'dave'],
      [
        ['new password of dave: ', 'tty-second-secret\r'],
        ['new password of dave again: ', 'tty-second-secreT\r'],
      ],
    );
    expect(refused.code).toBe(1);
    expect(refused.screen).toContain('the two passwords differ; nothing changed');
    expect(refused.screen).not.toMatch(/tty-second/);
    expect(await signsIn('dave', 'tty-typed-secret-1')).toBe(true);

    const changed = await onTerminal(
      ['user', 'passwd', 'dave'],
      [
        ['new password of dave: ', 'tty-second-secret\r'],
        ['new password of dave again: ', 'tty-second-secret\r'],
      ],
    );
    expect(changed.code, changed.screen).toBe(0);
    expect(changed.screen).toContain('changed the password of dave');
    expect(changed.screen).not.toContain('tty-second-secret');
    expect(await signsIn('dave', 'tty-second-secret')).toBe(true);
    expect(await signsIn('dave', 'tty-typed-secret-1')).toBe(false);
  }, 300_000);

  it('Ctrl-C at the prompt ends the command with exit 1, adding no user', async () => {
    const { code, screen } = await onTerminal(['user', 'add', 'erin'], [['password of erin: ', 'half\x03']]);
    expect(code).toBe(1);
    expect(screen).toContain('no password given; nothing changed');
    expect(screen).not.toContain('half');
    const lines: string[] = [];
    await runCli(['user', 'list'], (line) => lines.push(line));
    expect(lines.some((line) => line.includes('\terin\t'))).toBe(false);
  }, 300_000);
});
