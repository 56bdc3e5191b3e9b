import type { ChildProcess } from 'node:child_process';
import { feedLines, spawnSmbclient, type SmbclientRequest } from './run-smbclient.js';

/** What ended a session early: smbclient exited (a failed logon, a killed process) or went silent. */
export class SmbclientSessionEnded extends Error {
  override readonly name = 'SmbclientSessionEnded';
  constructor(
    readonly exitCode: number | null,
    readonly timedOut: boolean,
    /** The program that could not be run: smbclient, or stdbuf (coreutils) that runs it. */
    readonly notInstalled: 'smbclient' | 'stdbuf' | undefined,
  ) {
    super(notInstalled ? `${notInstalled} is not installed` : timedOut ? 'smbclient went silent' : `smbclient exited (code ${String(exitCode)})`);
  }
}

/** `pwd` answers this at once without asking the server: it marks where a command's output ends. */
const endMark = 'Current directory is ';

interface Pending {
  /** No line of this listing has come yet: its `pwd` is not sent. */
  silent: boolean;
  onLine(line: string): void;
  resolve(): void;
  reject(error: unknown): void;
}

/** smbclient's greeting on stdin mode, printed before it reads its first command. */
const greeting = 'Try "help"';
/** What `stdbuf` exits with when it cannot run smbclient. */
const notFoundExit = 127;

/**
 * One smbclient process kept open, reading its commands from stdin: one logon for many
 * listings, one at a time. `list` sends `ls "DIR\*"`, and `pwd` once the first line of its
 * answer shows smbclient has read the `ls`; every line up to `pwd`'s answer goes to the
 * listing. (smbclient waits in select() on stdin, then reads a line through stdio: two
 * commands in one pipe read would leave the second in stdio's buffer, unseen by select, until
 * more input came.) Every `ls` prints a line at least: entries, the free-space line, or the
 * NT_STATUS it failed with. A failed logon is given to the first listing. Bounded by silence
 * while a listing is outstanding, as a whole scan was before.
 */
export class SmbclientSession {
  readonly #child: ChildProcess;
  readonly #pending: Pending[] = [];
  readonly #idleMs: number;
  #timer: NodeJS.Timeout | undefined;
  #ended: SmbclientSessionEnded | undefined;
  #lineError: unknown;
  /** Resolves once smbclient has exited (or could not start). */
  readonly closed: Promise<void>;

  constructor(request: Omit<SmbclientRequest, 'onLine' | 'signal' | 'command'>, idleMs: number) {
    this.#idleMs = idleMs;
    this.#child = spawnSmbclient(request, idleMs, 'pipe');
    this.#child.stdin?.on('error', () => {}); // an exited smbclient: the close below tells why
    const fail = (error: unknown) => {
      this.#lineError ??= error;
      this.#child.kill('SIGKILL');
    };
    feedLines(
      this.#child.stdout,
      (line) => this.#line(line, true),
      fail,
      () => this.#arm(),
    );
    // stderr (the config loader's chatter, a failed logon's words) never marks a listing as read.
    feedLines(
      this.#child.stderr,
      (line) => this.#line(line, false),
      fail,
      () => this.#arm(),
    );
    this.closed = new Promise<void>((resolve) => {
      this.#child.once('error', (error: NodeJS.ErrnoException) => {
        this.#end(new SmbclientSessionEnded(null, false, error.code === 'ENOENT' ? 'stdbuf' : undefined));
        resolve();
      });
      this.#child.once('close', (code) => {
        this.#end(new SmbclientSessionEnded(code, false, code === notFoundExit ? 'smbclient' : undefined));
        resolve();
      });
    });
  }

  /** Listings sent and not yet answered. */
  get outstanding(): number {
    return this.#pending.length;
  }

  /**
   * Lists `dir` (backslash-separated, relative to the session's start directory; '' for it).
   * Rejects with what `onLine` threw, or SmbclientSessionEnded.
   */
  list(dir: string, onLine: (line: string) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.#ended !== undefined) return reject(this.#lineError ?? this.#ended);
      if (this.#pending.length > 0) return reject(new Error('one listing at a time per smbclient session'));
      this.#pending.push({ silent: true, onLine, resolve, reject });
      this.#arm();
      // Windows names cannot hold '"' (Samba shows such names mangled), so quoting is safe.
      const mask = dir === '' ? '*' : `${dir}\\*`;
      this.#child.stdin?.write(`ls "${mask}"\n`);
    });
  }

  /** Ends the session (stdin closed: smbclient logs off and exits). */
  close(): void {
    this.#child.stdin?.end();
  }

  kill(): void {
    this.#child.kill('SIGKILL');
  }

  #arm(): void {
    clearTimeout(this.#timer);
    if (this.#pending.length === 0) return;
    this.#timer = setTimeout(() => {
      this.#end(new SmbclientSessionEnded(null, true, undefined));
      this.#child.kill('SIGKILL');
    }, this.#idleMs);
  }

  #line(line: string, stdout: boolean): void {
    const pending = this.#pending[0];
    if (pending === undefined) return;
    if (!stdout) return pending.onLine(line);
    if (pending.silent) {
      if (line.startsWith(greeting)) return;
      pending.silent = false;
      this.#child.stdin?.write('pwd\n');
    } else if (line.startsWith(endMark)) {
      this.#pending.shift();
      this.#arm();
      return pending.resolve();
    }
    pending.onLine(line);
  }

  #end(ended: SmbclientSessionEnded): void {
    if (this.#ended !== undefined) return;
    this.#ended = ended;
    clearTimeout(this.#timer);
    for (const pending of this.#pending.splice(0)) pending.reject(this.#lineError ?? ended);
  }
}
