import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { CliError } from './cli-error.js';
import { readStdin } from './read-stdin.js';

/**
 * One line typed at the terminal, not shown: readline in terminal mode puts the tty in raw mode
 * and echoes what it reads to its output, which here drops everything but the prompt. On stderr,
 * so stdout keeps only the command's answer. Ctrl-C or Ctrl-D ends the command, changing nothing.
 */
function askHidden(prompt: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise<string>((resolve, reject) => {
    let answered = false;
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => {
      process.stderr.write('\n');
      if (!answered) reject(new CliError('no password given; nothing changed'));
    });
    rl.question(prompt, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
    // After the prompt is written: from here on, what readline echoes is dropped.
    muted = true;
  });
}

/**
 * A password for `user add`, `user passwd` and `shares add --ask-password`: asked twice on a
 * terminal, without echo; read from stdin when it is piped (`echo … | dms user add alice`), as
 * scripts do, without the trailing newline.
 */
export async function readPassword(what: string): Promise<string> {
  if (!process.stdin.isTTY) return readStdin();
  const password = await askHidden(`${what}: `);
  const again = await askHidden(`${what} again: `);
  if (password !== again) throw new CliError('the two passwords differ; nothing changed');
  return password;
}
