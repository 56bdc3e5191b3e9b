import { randomInt } from 'node:crypto';
import type { Socket } from 'node:net';
import { XdrError, XdrReader, XdrWriter } from './xdr.js';
import { RpcError } from './rpc-error.js';
import { RecordAssembler } from './rpc-record.js';

import { peerCall } from '../../tracing/spans.js';
export { RpcError, type RpcFailure } from './rpc-error.js';

/** ONC RPC (RFC 5531) over TCP with record marking: one call, one reply, on an open socket. */

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

/** One call as a record-marked message (one fragment). */
export function callRecord(xid: number, request: RpcRequest): Buffer {
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
export function parseReply(xid: number, record: Buffer): XdrReader {
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
 * Sends one call and resolves with what `decode` makes of the results. The whole reply must
 * arrive within `timeoutMs` and within the record bounds (rpc-record.ts); a reply that is not
 * what its XDR type allows is RpcError('not_rpc'). Rejects with RpcError, an error `decode`
 * throws on purpose (a DriverError), or the signal's reason on abort.
 */
export function rpcCall<T>(socket: Socket, request: RpcRequest, timeoutMs: number, signal: AbortSignal, decode: (results: XdrReader) => T): Promise<T> {
  // A scan's many directory reads go over RpcConnection, untraced: one span per call would outnumber the rest.
  const attributes = {
    'rpc.system': 'onc_rpc',
    'rpc.service': String(request.program),
    'rpc.method': String(request.procedure),
    'dms.rpc.version': request.version,
    ...(socket.remoteAddress === undefined ? {} : { 'server.address': socket.remoteAddress }),
    ...(socket.remotePort === undefined ? {} : { 'server.port': socket.remotePort }),
  };
  return peerCall(`rpc ${request.program}/${request.version}/${request.procedure}`, attributes, () => sendCall(socket, request, timeoutMs, signal, decode));
}

function sendCall<T>(socket: Socket, request: RpcRequest, timeoutMs: number, signal: AbortSignal, decode: (results: XdrReader) => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    signal.throwIfAborted();
    const xid = randomInt(1, 0x7fffffff);
    const record = new RecordAssembler();

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
      try {
        const reply = record.push(chunk);
        if (reply === undefined) return;
        const value = decode(parseReply(xid, reply));
        finish(() => resolve(value));
      } catch (error) {
        fail(error instanceof XdrError ? new RpcError({ kind: 'not_rpc' }) : error);
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
