import { fstatSync, write, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import type { DestinationStream } from 'pino';

export interface BatchedDestinationOptions {
  /** The file descriptor lines go to (1: standard output). */
  fd: number;
  /** Lines are handed on once this many bytes wait. */
  batchBytes: number;
  /** ... or once the oldest waiting line is this old. */
  withinMs: number;
  /** Most bytes left unwritten (a reader that stopped reading) before lines are dropped. */
  maxUnwrittenBytes: number;
  /** Told of each dropped batch: past the cap, or refused by the fd (a reader gone). */
  onDrop?: (bytes: number) => void;
}

export interface DroppedLines {
  lines: number;
  bytes: number;
}

export interface BatchedDestination extends DestinationStream {
  /** Calls back when every line written so far has been written out or dropped. */
  flush(callback: (error?: Error) => void): void;
  /** Writes what the fd takes now, without waiting for its reader; drops and counts the rest. */
  flushSync(): void;
  /** What was dropped so far. */
  dropped(): DroppedLines;
}

/** How long a full non-blocking pipe is left before the write is tried again. */
const retryFullMs = 100;

/** Every destination whose waiting lines must reach their fd when the process exits, crash or not. */
const open = new Set<Batcher>();

/**
 * One exit hook for them all, installed with the first. What could not be written is said on
 * standard error, the one place left to say it (issue 40 item 15).
 */
function keepUntilExit(destination: Batcher): void {
  if (open.size === 0) {
    process.on('exit', () => {
      for (const each of open) {
        each.flushSync();
        const { lines, bytes } = each.dropped();
        if (lines === 0 && bytes === 0) continue;
        try {
          writeSync(2, `dms: ${lines} log lines (${bytes} bytes) could not be written to fd ${each.fd} and were dropped (its reader was gone or behind)\n`);
        } catch {
          // Standard error is gone too: nothing is left to tell.
        }
      }
    });
  }
  open.add(destination);
}

/**
 * A pipe or socket made non-blocking, so that no write to it (a thread-pool write, the exit's
 * synchronous one) can wait for a reader that stopped reading: a blocked thread-pool write holds
 * even `process.exit` (libuv joins its threads). Node has no fcntl; libuv sets O_NONBLOCK on a
 * descriptor it opens as a stream, and the flag belongs to the open file, so this handle is kept
 * for that alone (lines are written with fs.write). Files and terminals are left as they are.
 */
function makeNonBlocking(fd: number): void {
  try {
    const stat = fstatSync(fd);
    if (!stat.isFIFO() && !stat.isSocket()) return;
    const handle = new Socket({ fd, readable: false, writable: true });
    handle.unref();
    nonBlockingHandles.push(handle);
  } catch {
    // Not a stream libuv can open: it stays as it is.
  }
}

/** Held for the process's life: the handles only keep their fds' O_NONBLOCK (see makeNonBlocking). */
const nonBlockingHandles: Socket[] = [];

const newlines = (bytes: Buffer) => {
  let count = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) count += 1;
  return count;
};

const wouldBlock = (error: NodeJS.ErrnoException) => error.code === 'EAGAIN' || error.code === 'EWOULDBLOCK';

/**
 * An fd written asynchronously in batches. Each line is encoded at once into a batch buffer
 * outside V8's heap, so no line string waits in the heap for its batch's write (the info server's
 * RSS after a show load fell by ~7 MB, docs/decisions/082-logs.md), and one write carries ~20
 * access lines. Written here rather than through sonic-boom (issue 40 item 15): its synchronous
 * flush retried every 100 ms for ever on any error, so a SIGTERM with standard output's reader
 * gone (EPIPE) never ended the process. Here no write is retried but a full pipe's, and that only
 * asynchronously; a line the fd refuses, or past `maxUnwrittenBytes`, is dropped and counted.
 */
class Batcher implements BatchedDestination {
  readonly fd: number;
  readonly #batchBytes: number;
  readonly #withinMs: number;
  readonly #maxUnwrittenBytes: number;
  readonly #onDrop: ((bytes: number) => void) | undefined;
  /** Lines waiting, encoded: the first `#used` bytes. Room for a batch and a long line after it. */
  readonly #waiting: Buffer;
  #used = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Batches handed on and not yet in a write, `#queuedBytes` long in all. */
  #queue: Buffer[] = [];
  #queuedBytes = 0;
  /** What the write under way has left to write; undefined when none is. */
  #current: Buffer | undefined;
  /** Set while a full pipe is waited out: `#current` is then in no write and may be written at exit. */
  #retry: NodeJS.Timeout | undefined;
  #flushed: ((error?: Error) => void)[] = [];
  #dropped: DroppedLines = { lines: 0, bytes: 0 };

  constructor({ fd, batchBytes, withinMs, maxUnwrittenBytes, onDrop }: BatchedDestinationOptions) {
    this.fd = fd;
    this.#batchBytes = batchBytes;
    this.#waiting = Buffer.allocUnsafe(4 * batchBytes);
    this.#withinMs = withinMs;
    this.#maxUnwrittenBytes = maxUnwrittenBytes;
    this.#onDrop = onDrop;
    makeNonBlocking(fd);
    keepUntilExit(this);
  }

  write(line: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8: what waits goes first unless the line surely fits.
    if (this.#used + 3 * line.length > this.#waiting.length) {
      this.#handOn();
      if (3 * line.length > this.#waiting.length) return this.#handOnEncoded(Buffer.from(line));
    }
    this.#used += this.#waiting.write(line, this.#used);
    if (this.#used >= this.#batchBytes) this.#handOn();
    else this.#timer ??= setTimeout(() => this.#handOn(), this.#withinMs).unref();
  }

  flush(callback: (error?: Error) => void): void {
    this.#handOn();
    if (this.#current) this.#flushed.push(callback);
    else callback();
  }

  flushSync(): void {
    this.#handOn();
    // A write in the thread pool may still land: only what no write holds is written here.
    const pending = this.#retry && this.#current ? [this.#current, ...this.#queue] : this.#queue;
    if (this.#retry) {
      clearTimeout(this.#retry);
      this.#retry = undefined;
      this.#current = undefined;
    }
    this.#queue = [];
    this.#queuedBytes = 0;
    for (let index = 0; index < pending.length; index++) {
      let bytes = pending[index]!;
      try {
        while (bytes.length > 0) bytes = bytes.subarray(writeSync(this.fd, bytes));
      } catch {
        // A reader gone, or one that has not emptied the pipe by the exit: nothing waits for it.
        for (const rest of [bytes, ...pending.slice(index + 1)]) this.#drop(rest);
        return;
      }
    }
  }

  dropped(): DroppedLines {
    return { ...this.#dropped };
  }

  #handOn(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#used === 0) return;
    // A copy: the batch waits for its write, and the batch buffer is reused at once.
    const batch = Buffer.from(this.#waiting.subarray(0, this.#used));
    this.#used = 0;
    this.#handOnEncoded(batch);
  }

  #handOnEncoded(batch: Buffer): void {
    const unwritten = this.#queuedBytes + (this.#current?.length ?? 0);
    if (unwritten + batch.length > this.#maxUnwrittenBytes) return this.#drop(batch);
    this.#queue.push(batch);
    this.#queuedBytes += batch.length;
    if (!this.#current) this.#writeNext();
  }

  #writeNext(): void {
    if (this.#queue.length === 0) {
      this.#current = undefined;
      for (const callback of this.#flushed.splice(0)) callback();
      return;
    }
    const bytes = this.#queue.length === 1 ? this.#queue[0]! : Buffer.concat(this.#queue, this.#queuedBytes);
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#write(bytes);
  }

  #write(bytes: Buffer): void {
    this.#current = bytes;
    write(this.fd, bytes, 0, bytes.length, null, (error, written) => {
      if (this.#current !== bytes) return; // taken by the exit's flushSync
      if (error && wouldBlock(error)) {
        this.#retry = setTimeout(() => {
          this.#retry = undefined;
          this.#write(bytes);
        }, retryFullMs).unref();
        return;
      }
      if (error) this.#drop(bytes);
      else if (written < bytes.length) return this.#write(bytes.subarray(written));
      this.#writeNext();
    });
  }

  #drop(bytes: Buffer): void {
    this.#dropped.lines += newlines(bytes);
    this.#dropped.bytes += bytes.length;
    this.#onDrop?.(bytes.length);
  }
}

export function batchedDestination(options: BatchedDestinationOptions): BatchedDestination {
  return new Batcher(options);
}
