import type { Socket } from 'node:net';
import { randomInt } from 'node:crypto';
import { callRecord, parseReply, type RpcRequest } from './rpc-call.js';
import { RpcError } from './rpc-error.js';
import { RecordAssembler, maxRecordBytes } from './rpc-record.js';
import { XdrError, type XdrReader } from './xdr.js';

interface Pending {
  decode(results: XdrReader): unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * ONC RPC over one TCP connection with several calls in flight: replies are told apart by
 * their xid (RFC 5531 §9), records are read one after another off the stream. Every reply
 * is held to `maxReplyBytes` (and the fragment cap of rpc-record.ts), every call to its own
 * timeout. Once the stream is broken (a bound passed, the peer closed) every call pending
 * or made later fails with the same error: a scan does not go on over half a connection.
 */
export class RpcConnection {
  readonly #pending = new Map<number, Pending>();
  readonly #maxReplyBytes: number;
  #assembler: RecordAssembler;
  #xid = randomInt(1, 0x7fffffff);
  #broken: unknown;

  constructor(
    private readonly socket: Socket,
    options: { maxReplyBytes?: number } = {},
  ) {
    this.#maxReplyBytes = Math.min(options.maxReplyBytes ?? maxRecordBytes, maxRecordBytes);
    this.#assembler = new RecordAssembler(this.#maxReplyBytes);
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.once('close', () => this.#break(new RpcError({ kind: 'closed' })));
    socket.once('error', () => this.#break(new RpcError({ kind: 'closed' })));
  }

  /** Calls in flight. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Resolves with what `decode` makes of the results; rejects as rpcCall does. */
  call<T>(request: RpcRequest, timeoutMs: number, signal: AbortSignal, decode: (results: XdrReader) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      signal.throwIfAborted();
      if (this.#broken !== undefined) throw this.#broken;
      this.#xid = (this.#xid % 0xfffffffe) + 1;
      const xid = this.#xid;
      const settle = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#pending.delete(xid);
      };
      const onAbort = () => {
        settle();
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        settle();
        reject(new RpcError({ kind: 'timeout' }));
      }, timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(xid, {
        decode,
        resolve: (value) => {
          settle();
          resolve(value as T);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      this.socket.write(callRecord(xid, request));
    });
  }

  close(): void {
    this.#break(new RpcError({ kind: 'closed' }));
    this.socket.destroy();
  }

  #onData(chunk: Buffer): void {
    if (this.#broken !== undefined) return;
    let rest = chunk;
    try {
      // Work per chunk is linear in it: each record is assembled once, then decoded once.
      while (rest.length > 0) {
        const record = this.#assembler.push(rest);
        if (record === undefined) return;
        rest = rest.subarray(this.#assembler.used);
        this.#assembler = new RecordAssembler(this.#maxReplyBytes);
        this.#dispatch(record);
      }
    } catch (error) {
      this.#break(error);
      this.socket.destroy();
    }
  }

  #dispatch(record: Buffer): void {
    if (record.length < 4) throw new RpcError({ kind: 'not_rpc' });
    // A reply to no pending call (one that timed out or was aborted) is dropped.
    const pending = this.#pending.get(record.readUInt32BE(0));
    if (pending === undefined) return;
    let value: unknown;
    try {
      value = pending.decode(parseReply(record.readUInt32BE(0), record));
    } catch (error) {
      return pending.reject(error instanceof XdrError ? new RpcError({ kind: 'not_rpc' }) : error);
    }
    pending.resolve(value);
  }

  #break(error: unknown): void {
    if (this.#broken !== undefined) return;
    this.#broken = error;
    for (const pending of [...this.#pending.values()]) pending.reject(error);
  }
}
