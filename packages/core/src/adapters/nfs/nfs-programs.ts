import type { Socket } from 'node:net';
import { authSys, rpcCall } from './rpc-call.js';
import { RpcError } from './rpc-error.js';
import { XdrWriter, type XdrReader } from './xdr.js';

/** The RPC programs and procedures the NFS probes use, each a thin wrapper over rpcCall. */

export const programs = { portmapper: 100000, nfs: 100003, mount: 100005 } as const;

const IPPROTO_TCP = 6;

/** NULL (procedure 0) of a program version: answers iff the server speaks that version. */
export async function nullCall(socket: Socket, program: number, version: number, timeoutMs: number, signal: AbortSignal): Promise<void> {
  await rpcCall(socket, { program, version, procedure: 0 }, timeoutMs, signal, () => undefined);
}

/** Portmapper v2 GETPORT over TCP: the port of `program`/`version`, 0 when not registered. */
export async function getPort(socket: Socket, program: number, version: number, timeoutMs: number, signal: AbortSignal): Promise<number> {
  const args = new XdrWriter().u32(program).u32(version).u32(IPPROTO_TCP).u32(0).bytes();
  return rpcCall(socket, { program: programs.portmapper, version: 2, procedure: 3, args }, timeoutMs, signal, (reply) => reply.u32());
}

/** More than any real server lists; beyond it the reply is refused rather than kept in memory. */
export const maxExports = 10_000;

/**
 * MOUNT v3 exports: a linked list of (dirpath, groups: a linked list of names). The record cap
 * bounds the bytes; this bounds what is kept (group names are passed over, not decoded).
 */
export function decodeExports(reply: XdrReader): string[] {
  const exports: string[] = [];
  while (reply.u32() === 1) {
    if (exports.length === maxExports) throw new RpcError({ kind: 'too_many', what: 'exports', max: maxExports });
    exports.push(reply.string(1024));
    while (reply.u32() === 1) reply.opaque(255);
  }
  return exports;
}

/** MOUNT v3 EXPORT (procedure 5): the exported directories. */
export async function listExports(socket: Socket, timeoutMs: number, signal: AbortSignal): Promise<string[]> {
  return rpcCall(socket, { program: programs.mount, version: 3, procedure: 5, credential: authSys() }, timeoutMs, signal, decodeExports);
}

export const nfs4 = {
  ok: 0,
  noent: 2,
  access: 13,
  notdir: 20,
  wrongsec: 10016,
  minorVersMismatch: 10021,
} as const;

export interface LookupOutcome {
  status: number;
  /** Whether the path names a directory (when status is ok). */
  isDirectory: boolean;
}

const OP_GETATTR = 9;
const OP_LOOKUP = 15;
const OP_PUTROOTFH = 24;

/**
 * An NFSv4.0 COMPOUND's head, PUTROOTFH, then LOOKUP of each component: the walk down the
 * server's pseudo file system; the caller appends its `trailingOps` operations.
 */
export function rootWalk4(components: readonly string[], trailingOps: number): XdrWriter {
  const writer = new XdrWriter()
    .string('dms')
    .u32(0)
    .u32(components.length + 1 + trailingOps)
    .u32(OP_PUTROOTFH);
  for (const component of components) writer.u32(OP_LOOKUP).string(component);
  return writer;
}

const FATTR4_TYPE_MASK = 1 << 1;
const NF4DIR = 2;

/**
 * NFSv4.0 COMPOUND { PUTROOTFH, LOOKUP c1, ..., GETATTR(type) }: walks the server's pseudo
 * file system to the share's path without mounting. 4.0 needs no session, unlike 4.1+.
 */
export async function lookupPath(socket: Socket, components: readonly string[], timeoutMs: number, signal: AbortSignal): Promise<LookupOutcome> {
  const args = rootWalk4(components, 1).u32(OP_GETATTR).u32(1).u32(FATTR4_TYPE_MASK);
  return rpcCall(socket, { program: programs.nfs, version: 4, procedure: 1, args: args.bytes(), credential: authSys() }, timeoutMs, signal, (reply) =>
    decodeLookup(reply, components.length),
  );
}

/** The COMPOUND reply of lookupPath for a path of `depth` components. */
export function decodeLookup(reply: XdrReader, depth: number): LookupOutcome {
  const status = reply.u32();
  if (status !== nfs4.ok) return { status, isDirectory: false };
  reply.string(1024); // tag
  reply.u32(); // number of results: all of them, since none failed
  for (let i = 0; i < depth + 1; i += 1) {
    reply.u32(); // opcode
    reply.u32(); // status (ok)
  }
  reply.u32(); // GETATTR opcode
  reply.u32(); // its status
  reply.skipWords(reply.u32()); // the attribute bitmap
  const values = reply.opaque(1024);
  return { status, isDirectory: values.length >= 4 && values.readUInt32BE(0) === NF4DIR };
}
