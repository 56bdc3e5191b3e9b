import type { Socket } from 'node:net';
import { DriverError, type DriverRun, type ShareCapacity } from '../../ports/share-driver.js';
import { inWords } from './nfs-messages.js';
import { mountRoot } from './nfs-mount.js';
import { nfs4, programs, rootWalk4 } from './nfs-programs.js';
import { authSys, rpcCall } from './rpc-call.js';
import { XdrWriter, type XdrReader } from './xdr.js';

/**
 * A share's capacity over NFS, through the same ONC-RPC client as the test: v3 asks FSSTAT
 * (RFC 1813 §3.3.18: `tbytes` in all, `abytes` free for the caller) of the share's directory,
 * found by MOUNT then LOOKUP; v4.0 asks GETATTR `space_total` and `space_avail` (RFC 7530
 * §5.8.2) at the end of the test's PUTROOTFH + LOOKUP walk. No mount, nothing written.
 */

const NFSPROC3_LOOKUP = 3;
const NFSPROC3_FSSTAT = 18;
const FHSIZE3 = 64;
/** fattr3 is 84 bytes: 21 words, passed over where a post_op_attr carries it. */
const fattr3Words = 21;

const OP_GETATTR = 9;
// Attributes 42 (space_avail) and 44 (space_total) sit in the bitmap's second word.
const spaceAvailBit = 1 << (42 - 32);
const spaceTotalBit = 1 << (44 - 32);

/** An XDR hyper (64-bit unsigned), as a Number: exact below 8 PiB, close enough beyond. */
function readU64(reader: XdrReader): number {
  const high = reader.u32();
  return high * 2 ** 32 + reader.u32();
}

function nfs3Failure(what: string, status: number): DriverError {
  const words: Record<number, string> = { 1: 'not permitted', 2: 'not found', 13: 'access denied', 20: 'not a directory', 70: 'stale file handle' };
  return new DriverError(`${what} failed (${words[status] ?? `NFS3 error ${status}`})`);
}

/** NFS v3 LOOKUP of one name in a directory: the entry's file handle. */
export function lookup3(socket: Socket, dir: Buffer, name: string, timeoutMs: number, signal: AbortSignal): Promise<Buffer> {
  const args = new XdrWriter().opaque(dir).string(name).bytes();
  return rpcCall(socket, { program: programs.nfs, version: 3, procedure: NFSPROC3_LOOKUP, args, credential: authSys() }, timeoutMs, signal, (reply) => {
    const status = reply.u32();
    if (status !== 0) throw nfs3Failure(`looking up '${name}'`, status);
    return Buffer.from(reply.opaque(FHSIZE3));
  });
}

/** The FSSTAT3 reply: status, post_op_attr, then tbytes, fbytes, abytes (and file counts, not read). */
export function decodeFsstat(reply: XdrReader): ShareCapacity {
  const status = reply.u32();
  if (status !== 0) throw nfs3Failure('FSSTAT', status);
  if (reply.u32() === 1) reply.skipWords(fattr3Words);
  const tbytes = readU64(reply);
  readU64(reply); // fbytes: free for root, beyond what the share's user may write
  return { capacity_bytes: tbytes, free_bytes: readU64(reply) };
}

/** NFS v3 FSSTAT of a file handle. */
export function fsstat3(socket: Socket, handle: Buffer, timeoutMs: number, signal: AbortSignal): Promise<ShareCapacity> {
  const args = new XdrWriter().opaque(handle).bytes();
  return rpcCall(socket, { program: programs.nfs, version: 3, procedure: NFSPROC3_FSSTAT, args, credential: authSys() }, timeoutMs, signal, decodeFsstat);
}

/** The COMPOUND reply of spaceAttributes4 for a path of `depth` components. */
export function decodeSpaceAttributes(reply: XdrReader, depth: number): ShareCapacity {
  const status = reply.u32();
  if (status !== nfs4.ok) throw new DriverError(`GETATTR of the space attributes failed (NFS4 error ${status})`);
  reply.string(1024); // tag
  reply.u32(); // number of results
  for (let i = 0; i < depth + 1; i += 1) {
    reply.u32(); // opcode
    reply.u32(); // status (ok)
  }
  reply.u32(); // GETATTR opcode
  reply.u32(); // its status
  const words = reply.u32();
  const bitmap: number[] = [];
  for (let i = 0; i < words; i += 1) {
    if (i > 8) throw new DriverError('GETATTR answered with an attribute bitmap longer than any NFS v4 server sends');
    bitmap.push(reply.u32());
  }
  const second = bitmap[1] ?? 0;
  if ((second & spaceAvailBit) === 0 || (second & spaceTotalBit) === 0) throw new DriverError('the server does not report space_total and space_avail');
  // Only the asked-for attributes come back, in attribute order: avail (42), then total (44).
  const values = reply.opaque(64);
  if (values.length < 16) throw new DriverError('GETATTR answered with fewer attribute bytes than asked for');
  const read = (offset: number) => values.readUInt32BE(offset) * 2 ** 32 + values.readUInt32BE(offset + 4);
  return { capacity_bytes: read(8), free_bytes: read(0) };
}

/** NFSv4.0 COMPOUND { PUTROOTFH, LOOKUP c1, ..., GETATTR(space_avail, space_total) }. */
export function spaceAttributes4(socket: Socket, components: readonly string[], timeoutMs: number, signal: AbortSignal): Promise<ShareCapacity> {
  const args = rootWalk4(components, 1)
    .u32(OP_GETATTR)
    .u32(2)
    .u32(0)
    .u32((spaceAvailBit | spaceTotalBit) >>> 0);
  return rpcCall(socket, { program: programs.nfs, version: 4, procedure: 1, args: args.bytes(), credential: authSys() }, timeoutMs, signal, (reply) =>
    decodeSpaceAttributes(reply, components.length),
  );
}

export interface NfsCapacityTarget {
  host: string;
  /** NFS's port (the socket's peer). */
  port: number;
  version: 3 | 4;
  /** The share's path, split: for v4 from the pseudo root, for v3 from the server's root. */
  components: readonly string[];
}

/** For v3: the export covering the share (as the test found it) and MOUNT's port. */
export interface NfsV3Mount {
  address: string;
  exported: string;
  mountPort: number;
}

/**
 * Reads a share's capacity on an open NFS connection (the test's, or a scan's). Rejects with a
 * DriverError in plain words; a caller for which capacity is a bonus catches it.
 */
export async function readNfsCapacity(
  socket: Socket,
  target: NfsCapacityTarget,
  v3: NfsV3Mount | undefined,
  run: Pick<DriverRun, 'timeoutMs' | 'signal'>,
): Promise<ShareCapacity> {
  const { host, port, version, components } = target;
  const { timeoutMs, signal } = run;
  if (version === 4) return inWords({ host, port, service: 'NFS v4', timeoutMs }, () => spaceAttributes4(socket, components, timeoutMs, signal));
  if (v3 === undefined) throw new DriverError('the export covering the share is not known');
  const { address, exported, mountPort } = v3;
  const mounted = await mountRoot({ host, address, port: mountPort }, exported, run, { release: true });
  if (!('fh' in mounted)) throw nfs3Failure(`mounting '${exported}'`, mounted.status);
  const root = mounted.fh;
  const exportedDepth = exported.split('/').filter((part) => part !== '').length;
  return inWords({ host, port, service: 'NFS v3', timeoutMs }, async () => {
    let handle = root;
    for (const name of components.slice(exportedDepth)) handle = await lookup3(socket, handle, name, timeoutMs, signal);
    return fsstat3(socket, handle, timeoutMs, signal);
  });
}
