import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { SmbclientFiles } from './smbclient-files.js';
import type { SmbTarget } from './smb-target.js';
import { SpanKind, inSpan } from '../../tracing/spans.js';

export interface SmbclientRequest {
  smbclientPath: string;
  target: SmbTarget;
  /** Resolved address (`-I`); the service keeps the host name the user gave. */
  address: string;
  files: SmbclientFiles;
  /** smbclient `-c` commands, e.g. `ls` or `recurse ON; ls`; absent: commands come on stdin (see SmbclientSession). */
  command?: string;
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

export function smbclientArgs(request: Omit<SmbclientRequest, 'onLine' | 'signal'>, timeoutMs: number): string[] {
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
  if (request.command !== undefined) args.push('-c', request.command);
  return args;
}

/** coreutils' stdbuf: smbclient's stdout to a pipe is otherwise flushed only every 4 KiB. */
export const stdbufPath = 'stdbuf';

/**
 * Spawns smbclient without a shell; with `stdin: 'pipe'` it reads its commands from there, and
 * runs under `stdbuf -oL` so each answer comes out as it is printed (see SmbclientSession).
 * The password comes over fd 3: not in argv, the environment or a file.
 */
export function spawnSmbclient(request: Omit<SmbclientRequest, 'onLine' | 'signal'>, boundMs: number, stdin: 'ignore' | 'pipe'): ChildProcess {
  const password = request.target.password;
  const args = smbclientArgs(request, boundMs);
  const [command, argv] = stdin === 'pipe' ? [stdbufPath, ['-oL', request.smbclientPath, ...args]] : [request.smbclientPath, args];
  const child = spawn(command, argv, {
    stdio: [stdin, 'pipe', 'pipe', 'pipe'],
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      LC_ALL: 'C',
      // Listing dates are printed in local time: UTC makes them one reading everywhere.
      TZ: 'UTC',
      HOME: request.files.dir,
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
  return child;
}

/** Splits a text stream into lines for `onLine`; a throw stops the feed and goes to `onError`. */
export function feedLines(stream: Readable | null, onLine: (line: string) => void, onError: (error: unknown) => void, onData?: () => void): void {
  if (stream === null) return;
  let rest = '';
  let failed = false;
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => {
    onData?.();
    rest += text;
    let start = 0;
    let newline = rest.indexOf('\n');
    while (newline >= 0 && !failed) {
      const line = rest.slice(start, newline);
      start = newline + 1;
      newline = rest.indexOf('\n', start);
      try {
        onLine(line);
      } catch (error) {
        failed = true;
        onError(error);
      }
    }
    rest = rest.slice(start);
  });
  stream.on('end', () => {
    if (rest === '' || failed) return;
    try {
      onLine(rest);
    } catch (error) {
      onError(error);
    }
  });
}

/** Runs smbclient without a shell, streaming its output line by line; a client span when traced. */
export function runSmbclient(request: SmbclientRequest): Promise<SmbclientOutcome> {
  const attributes = { 'server.address': request.target.host, 'server.port': request.target.port, 'dms.smb.share': request.target.share };
  return inSpan('smbclient', { kind: SpanKind.CLIENT, attributes }, async (span) => {
    const outcome = await runSmbclientProcess(request);
    if (outcome.exitCode !== null) span.setAttribute('process.exit.code', outcome.exitCode);
    if (outcome.timedOut) span.setAttribute('dms.timed_out', true);
    return outcome;
  });
}

function runSmbclientProcess(request: SmbclientRequest): Promise<SmbclientOutcome> {
  const bound = request.totalTimeoutMs ?? request.idleTimeoutMs ?? 60_000;
  return new Promise<SmbclientOutcome>((resolve, reject) => {
    if (request.signal.aborted) return reject(request.signal.reason);
    const outcome: SmbclientOutcome = { exitCode: null, timedOut: false, notInstalled: false };
    const child = spawnSmbclient(request, bound, 'ignore');
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

    const feed = (stream: Readable | null) =>
      feedLines(
        stream,
        (line) => {
          if (outcome.lineError === undefined) request.onLine(line);
        },
        (error) => {
          outcome.lineError ??= error;
          child.kill('SIGKILL');
        },
        () => {
          if (request.idleTimeoutMs !== undefined && request.totalTimeoutMs === undefined) arm();
        },
      );
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
