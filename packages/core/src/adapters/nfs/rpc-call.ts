import { randomInt } from 'node:crypto';
import type { Socket } from 'node:net';
import { XdrError, XdrReader, XdrWriter } from './xdr.js';

/** ONC RPC (RFC 5531) over TCP with record marking: one call, one reply, on an open socket. */

export type RpcFailure =
  | { kind: 'prog_unavail' }
  | { kind: 'prog_mismatch'; low: number; high: number }
  | { kind: 'proc_unavail' }
  | { kind: 'garbage_args' }
  | { kind: 'system_err' }
  | { kind: 'rpc_mismatch'; low: number; high: number }
  | { kind: 'auth_error'; stat: number }
  | { kind: 'timeout' }
  | { kind: 'closed' }
  | { kind: 'not_rpc' };

export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(readonly failure: RpcFailure) {
    super(`RPC call failed: ${failure.kind}`);
  }
}

export interface RpcCredential {
  flavor: number;
  body: Buffer;
}

export const authNone: RpcCredential = { flavor: 0, body: Buffer.alloc(0) };

/** AUTH_SYS as uid/gid 0, as the mount helper (root) would present itself. */
export function authSys(machine = 'dms'): RpcCredential {
  const body = new XdrWriter()
    .u32(Math.floor(Date.now() / 1000))
    .string(machine)
    .u32(0)
    .u32(0)
    .u32(0)
    .bytes();
  return { flavor: 1, body };
}

export interface RpcRequest {
  program: number;
  version: number;
  procedure: number;
  args?: Buffer;
  credential?: RpcCredential;
}

// Export lists and COMPOUND replies are small; anything near this is not an RPC server.
const maxRecord = 4 << 20;

function callRecord(xid: number, request: RpcRequest): Buffer {
  const credential = request.credential ?? authNone;
  const body = new XdrWriter()
    .u32(xid)
    .u32(0) // CALL
    .u32(2) // RPC version
    .u32(request.program)
    .u32(request.version)
    .u32(request.procedure)
    .u32(credential.flavor)
    .opaque(credential.body)
    .u32(0) // verifier: AUTH_NONE
    .u32(0)
    .bytes();
  const message = Buffer.concat([body, request.args ?? Buffer.alloc(0)]);
  const header = Buffer.alloc(4);
  header.writeUInt32BE((0x80000000 | message.length) >>> 0);
  return Buffer.concat([header, message]);
}

/** Reads the accepted reply's header and leaves the reader at the procedure's results. */
function parseReply(xid: number, record: Buffer): XdrReader {
  const reader = new XdrReader(record);
  if (reader.u32() !== xid || reader.u32() !== 1) throw new RpcError({ kind: 'not_rpc' });
  const replyStat = reader.u32();
  if (replyStat === 1) {
    const rejectStat = reader.u32();
    if (rejectStat === 0) throw new RpcError({ kind: 'rpc_mismatch', low: reader.u32(), high: reader.u32() });
    throw new RpcError({ kind: 'auth_error', stat: reader.u32() });
  }
  if (replyStat !== 0) throw new RpcError({ kind: 'not_rpc' });
  reader.u32(); // verifier flavor
  reader.opaque(400);
  switch (reader.u32()) {
    case 0:
      return reader;
    case 1:
      throw new RpcError({ kind: 'prog_unavail' });
    case 2:
      throw new RpcError({ kind: 'prog_mismatch', low: reader.u32(), high: reader.u32() });
    case 3:
      throw new RpcError({ kind: 'proc_unavail' });
    case 4:
      throw new RpcError({ kind: 'garbage_args' });
    default:
      throw new RpcError({ kind: 'system_err' });
  }
}

/**
 * Sends one call and resolves with a reader positioned at the results. Bounded by
 * `timeoutMs`; rejects with RpcError, or with the signal's reason on abort.
 */
export function rpcCall(
  socket: Socket,
  request: RpcRequest,
  timeoutMs: number,
  signal: AbortSignal
): Promise<XdrReader> {
  return new Promise<XdrReader>((resolve, reject) => {
    signal.throwIfAborted();
    const xid = randomInt(1, 0x7fffffff);
    const fragments: Buffer[] = [];
    let pending = Buffer.alloc(0);
    let size = 0;

    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onClose);
      settle();
    };
    const fail = (error: unknown) => finish(() => reject(error));
    const onAbort = () => fail(signal.reason);
    const onClose = () => fail(new RpcError({ kind: 'closed' }));
    const onData = (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const header = pending.readUInt32BE(0);
        const length = header & 0x7fffffff;
        if (size + length > maxRecord) return fail(new RpcError({ kind: 'not_rpc' }));
        if (pending.length < 4 + length) return;
        fragments.push(pending.subarray(4, 4 + length));
        size += length;
        pending = pending.subarray(4 + length);
        if ((header & 0x80000000) !== 0) {
          try {
            const reader = parseReply(xid, Buffer.concat(fragments));
            return finish(() => resolve(reader));
          } catch (error) {
            return fail(error instanceof XdrError ? new RpcError({ kind: 'not_rpc' }) : error);
          }
        }
      }
    };
    const timer = setTimeout(() => fail(new RpcError({ kind: 'timeout' })), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onClose);
    socket.write(callRecord(xid, request));
  });
}
