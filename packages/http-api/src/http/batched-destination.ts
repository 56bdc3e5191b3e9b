import sonicBoom from 'sonic-boom';
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
 * handing it the same lines 4 KiB at a time costs 2.8). Each line is encoded at once into a
 * batch buffer outside V8's heap, so no line string waits in the heap for its batch's write (the
 * info server's RSS after a show load fell by ~7 MB, docs/decisions.md, issue 27). sonic-boom
 * still does the writing, the retries on EAGAIN, the cap on what a stalled reader leaves
 * unwritten and the synchronous write at exit.
 */
class Batcher implements BatchedDestination {
  readonly #sonic: SonicBoom;
  readonly #batchBytes: number;
  readonly #withinMs: number;
  /** Lines waiting, encoded: the first `#used` bytes. Room for a batch and a long line after it. */
  readonly #waiting: Buffer;
  #used = 0;
  #timer: NodeJS.Timeout | undefined;
  /** A batch has been handed on and sonic-boom has not yet reported all written ('drain'). */
  #writing = false;
  #flushed: ((error?: Error) => void)[] = [];

  constructor({ fd, batchBytes, withinMs, maxUnwrittenBytes, onDrop }: BatchedDestinationOptions) {
    // minLength 0: whatever has been handed on is written as soon as no write is in flight,
    // in one write; the batching is done here.
    this.#sonic = new SonicBoom({ fd, sync: false, minLength: 0, maxLength: maxUnwrittenBytes, contentMode: 'buffer' });
    if (onDrop) this.#sonic.on('drop', (data: Buffer) => onDrop(data.length));
    this.#sonic.on('drain', () => this.#settle());
    // An unwritable fd (a closed pipe) loses its lines, and must not take the service with it.
    this.#sonic.on('error', (error: Error) => this.#settle(error));
    this.#batchBytes = batchBytes;
    this.#waiting = Buffer.allocUnsafe(4 * batchBytes);
    this.#withinMs = withinMs;
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
    if (this.#used === 0) return;
    // A copy: sonic-boom keeps what it is given until written, and the batch buffer is reused.
    const batch = Buffer.from(this.#waiting.subarray(0, this.#used));
    this.#used = 0;
    this.#handOnEncoded(batch);
  }

  #handOnEncoded(batch: Buffer): void {
    this.#writing = true;
    // In contentMode 'buffer' sonic-boom writes Buffers; its types declare the string mode only.
    this.#sonic.write(batch as unknown as string);
  }

  #settle(error?: Error): void {
    this.#writing = false;
    for (const callback of this.#flushed.splice(0)) callback(error);
  }
}

export function batchedDestination(options: BatchedDestinationOptions): BatchedDestination {
  return new Batcher(options);
}
