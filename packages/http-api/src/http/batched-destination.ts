import sonicBoom from 'sonic-boom';
import type { DestinationStream } from 'pino';

export interface BatchedDestinationOptions {
  /** The file descriptor lines go to (1: standard output). */
  fd: number;
  /** Lines are handed on once this many characters wait. */
  batchChars: number;
  /** ... or once the oldest waiting line is this old. */
  withinMs: number;
  /** Most bytes left unwritten (a reader that stopped reading) before lines are dropped. */
  maxUnwrittenBytes: number;
  /** Told of each dropped batch. */
  onDrop?: (bytes: number) => void;
}

export interface BatchedDestination extends DestinationStream {
  /** Calls back when every line written so far has been written out (or failed to be). */
  flush(callback: (error?: Error) => void): void;
  /** Writes every waiting line before returning: for the process's exit. */
  flushSync(): void;
}

// A CommonJS module whose class Node's ESM loader sees only as the default export.
const { SonicBoom } = sonicBoom;
type SonicBoom = InstanceType<typeof SonicBoom>;

/** Every destination whose waiting lines must reach their fd when the process exits, crash or not. */
const open = new Set<Batcher>();

/** One exit hook for them all, installed with the first. */
function keepUntilExit(destination: Batcher): void {
  if (open.size === 0) process.on('exit', () => open.forEach((each) => each.flushSync()));
  open.add(destination);
}

/**
 * pino's asynchronous sonic-boom, fed in batches. sonic-boom measures the UTF-8 length of its
 * whole pending buffer on every write (up to 16 KiB, flattened each time): per access line that
 * cost more than pino's serialisation and the write itself (7.8 µs a line in-process, where
 * handing it the same lines 4 KiB at a time costs 2.8). A line is appended to a string here and
 * the string handed on whole; sonic-boom still does the writing, the retries on EAGAIN, the cap
 * on what a stalled reader leaves unwritten and the synchronous write at exit.
 */
class Batcher implements BatchedDestination {
  readonly #sonic: SonicBoom;
  readonly #batchChars: number;
  readonly #withinMs: number;
  #waiting = '';
  #timer: NodeJS.Timeout | undefined;
  /** A batch has been handed on and sonic-boom has not yet reported all written ('drain'). */
  #writing = false;
  #flushed: ((error?: Error) => void)[] = [];

  constructor({ fd, batchChars, withinMs, maxUnwrittenBytes, onDrop }: BatchedDestinationOptions) {
    // minLength 0: whatever has been handed on is written as soon as no write is in flight,
    // in one write; the batching is done here.
    this.#sonic = new SonicBoom({ fd, sync: false, minLength: 0, maxLength: maxUnwrittenBytes });
    if (onDrop) this.#sonic.on('drop', (data: string) => onDrop(Buffer.byteLength(data)));
    this.#sonic.on('drain', () => this.#settle());
    // An unwritable fd (a closed pipe) loses its lines, and must not take the service with it.
    this.#sonic.on('error', (error: Error) => this.#settle(error));
    this.#batchChars = batchChars;
    this.#withinMs = withinMs;
    keepUntilExit(this);
  }

  write(line: string): void {
    this.#waiting += line;
    if (this.#waiting.length >= this.#batchChars) this.#handOn();
    else this.#timer ??= setTimeout(() => this.#handOn(), this.#withinMs).unref();
  }

  flush(callback: (error?: Error) => void): void {
    this.#handOn();
    if (this.#writing) this.#flushed.push(callback);
    else callback();
  }

  flushSync(): void {
    this.#handOn();
    try {
      this.#sonic.flushSync();
    } catch {
      // At exit, lines whose reader is gone are lost: nothing more can be done for them.
    }
  }

  #handOn(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#waiting === '') return;
    const batch = this.#waiting;
    this.#waiting = '';
    this.#writing = true;
    this.#sonic.write(batch);
  }

  #settle(error?: Error): void {
    this.#writing = false;
    for (const callback of this.#flushed.splice(0)) callback(error);
  }
}

export function batchedDestination(options: BatchedDestinationOptions): BatchedDestination {
  return new Batcher(options);
}
