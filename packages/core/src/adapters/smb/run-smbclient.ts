import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { SmbclientFiles } from './smbclient-files.js';
import type { SmbTarget } from './smb-target.js';

export interface SmbclientRequest {
  smbclientPath: string;
  target: SmbTarget;
  /** Resolved address (`-I`); the service keeps the host name the user gave. */
  address: string;
  files: SmbclientFiles;
  /** smbclient `-c` commands, e.g. `ls` or `recurse ON; ls`. */
  command: string;
  /** Kills smbclient this long after start (tests). */
  totalTimeoutMs?: number;
  /** Kills smbclient after this long without output (scans, whose length is unknown). */
  idleTimeoutMs?: number;
  /**
   * An existing private directory for smbclient's debug log (level 4, `log.smbclient`), read
   * afterwards for what only the log tells: the negotiated dialect. Errors still come on stdout;
   * stderr then carries only the config loader's chatter (printed before the log opens) and is
   * not passed to `onLine`.
   */
  debugLogDir?: string;
  signal: AbortSignal;
  /** Every output line, stdout and stderr alike (smbclient mixes them). Throwing kills the run. */
  onLine(line: string): void;
}

export interface SmbclientOutcome {
  exitCode: number | null;
  timedOut: boolean;
  notInstalled: boolean;
  /** What `onLine` threw, if anything. */
  lineError?: unknown;
}

export function smbclientArgs(request: SmbclientRequest, timeoutMs: number): string[] {
  const { target, files } = request;
  const args = [
    `//${target.host}/${target.share}`,
    '-s',
    files.configFile,
    '-A',
    files.authFile,
    '-I',
    request.address,
    '-p',
    String(target.port),
    // Per-operation bound inside smbclient too, so it gives up cleanly before we kill it.
    '-t',
    String(Math.max(1, Math.ceil(timeoutMs / 1000))),
    ...(request.debugLogDir === undefined ? ['-d', '0'] : ['-d', '4', '-l', request.debugLogDir]),
    ...target.protocol.args,
  ];
  // `-D` rather than a `cd` in -c: a failed `cd` in a command string still exits 0.
  if (target.dir !== '') args.push('-D', target.dir);
  args.push('-c', request.command);
  return args;
}

/** Runs smbclient without a shell, streaming its output line by line. */
export function runSmbclient(request: SmbclientRequest): Promise<SmbclientOutcome> {
  const bound = request.totalTimeoutMs ?? request.idleTimeoutMs ?? 60_000;
  return new Promise<SmbclientOutcome>((resolve, reject) => {
    if (request.signal.aborted) return reject(request.signal.reason);
    const outcome: SmbclientOutcome = { exitCode: null, timedOut: false, notInstalled: false };
    const password = request.target.password;
    const child = spawn(request.smbclientPath, smbclientArgs(request, bound), {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        LC_ALL: 'C',
        HOME: request.files.dir,
        // The password comes over fd 3: not in argv, the environment or a file.
        ...(password ? { PASSWD_FD: '3' } : {}),
      },
    });
    const passwordPipe = child.stdio[3] as Writable | null | undefined;
    if (passwordPipe) {
      passwordPipe.on('error', () => {}); // smbclient may exit before reading it
      // smbclient 4.17 reads PASSWD_FD twice (once more while guessing credentials); the second
      // copy spares it an "empty password" complaint and keeps the value the same either way.
      passwordPipe.end(password ? `${password}\n${password}\n` : '');
    }
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        outcome.timedOut = true;
        child.kill('SIGKILL');
      }, bound);
    };
    arm();
    const onAbort = () => child.kill('SIGKILL');
    request.signal.addEventListener('abort', onAbort, { once: true });

    const feed = (stream: Readable | null) => {
      if (stream === null) return;
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        if (request.idleTimeoutMs !== undefined && request.totalTimeoutMs === undefined) arm();
        rest += text;
        let newline = rest.indexOf('\n');
        while (newline >= 0 && outcome.lineError === undefined) {
          const line = rest.slice(0, newline);
          rest = rest.slice(newline + 1);
          newline = rest.indexOf('\n');
          try {
            request.onLine(line);
          } catch (error) {
            outcome.lineError = error;
            child.kill('SIGKILL');
          }
        }
      });
      stream.on('end', () => {
        if (rest !== '' && outcome.lineError === undefined) {
          try {
            request.onLine(rest);
          } catch (error) {
            outcome.lineError = error;
          }
        }
      });
    };
    feed(child.stdout);
    if (request.debugLogDir === undefined) feed(child.stderr);
    else child.stderr?.resume();

    const done = () => {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      done();
      if (error.code === 'ENOENT') {
        outcome.notInstalled = true;
        resolve(outcome);
      } else reject(error);
    });
    child.once('close', (code) => {
      done();
      if (request.signal.aborted) return reject(request.signal.reason);
      outcome.exitCode = code;
      resolve(outcome);
    });
  });
}
