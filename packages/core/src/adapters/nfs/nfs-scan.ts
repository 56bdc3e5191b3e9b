import { DriverError, type ScanResult, type ScanRun, type SkippedDirectories } from '../../ports/share-driver.js';
import { tcpConnect } from '../share-drivers/net-probes.js';
import { rpcDriverError, type RpcContext } from './nfs-messages.js';
import { mountPortOf, mountRoot } from './nfs-mount.js';
import { programs } from './nfs-programs.js';
import {
  decodeLookup3,
  decodeReaddir4,
  decodeReaddirplus3,
  decodeRootLookup4,
  defaultPageBytes,
  lookup3Args,
  nfs3,
  nfs4status,
  readdir4Args,
  readdirplus3Args,
  rootLookup4Args,
} from './nfs-readdir.js';
import { authSys, type RpcCredential } from './rpc-call.js';
import { RpcConnection } from './rpc-connection.js';
import { RpcError } from './rpc-error.js';
import { defaultWalkOptions, walkNfs, type DirReader, type Failure, type WalkOptions } from './nfs-walk.js';

/** A share's NFS target, as the driver's test and scan read it (see nfsTarget in nfs-driver.ts). */
export interface NfsTarget {
  host: string;
  port: number;
  version: 3 | 4;
  /** Normalised absolute path: "/export/sub". */
  path: string;
  components: string[];
  mountPort: number | undefined;
}

/** Tuning of NFS scans; the defaults suit real servers, tests shrink them to reach a bound quickly. */
export interface NfsScanOptions extends Partial<Omit<WalkOptions, 'signal' | 'onProgress'>> {
  /** maxcount of each READDIR(PLUS): the bytes one page may hold. */
  pageBytes?: number;
}

/** Room for the RPC and COMPOUND headers around a page of `pageBytes`. */
const replySlack = 8 * 1024;

const mountStatus: Record<number, string> = { 2: 'not found', 13: 'access denied', 20: 'not a directory' };

const nfs3Errors: Record<number, string> = {
  2: 'no such file or directory',
  5: 'I/O error',
  70: 'stale file handle',
  10003: 'bad cookie',
  10008: 'server busy',
};
const nfs4Errors: Record<number, string> = {
  2: 'no such file or directory',
  5: 'I/O error',
  70: 'stale file handle',
  10003: 'bad cookie',
  10008: 'server busy',
  10014: 'file handle expired',
  10027: 'directory changed',
};

function classify3(status: number): Failure {
  if (status === nfs3.access || status === nfs3.perm) return 'denied';
  if (status === nfs3.noent || status === nfs3.stale) return 'gone';
  if (status === nfs3.badCookie) return 'changed';
  return 'other';
}

function classify4(status: number): Failure {
  if (status === nfs4status.access || status === nfs4status.perm) return 'denied';
  if (status === nfs4status.noent || status === nfs4status.stale || status === nfs4status.fhExpired) return 'gone';
  if (status === nfs4status.badCookie || status === nfs4status.notSame) return 'changed';
  return 'other';
}

/** The share's directory, or why it cannot be opened, in the words of the NFS test. */
function rootFailure(target: NfsTarget, failure: Failure | 'notdir', detail: string): DriverError {
  const { host, path } = target;
  if (failure === 'gone') return new DriverError(`path '${path}' not found on host '${host}'`);
  if (failure === 'notdir') return new DriverError(`path '${path}' is not a directory`);
  if (failure === 'denied') return new DriverError(`access to path '${path}' denied by host '${host}'`);
  return new DriverError(`opening path '${path}' on host '${host}' failed (${detail})`);
}

/** v3: MNT of the export that covers the path, then LOOKUP of what lies below it. */
async function openRoot3(target: NfsTarget, exported: string, address: string, connection: RpcConnection, credential: RpcCredential, run: ScanRun) {
  const { host } = target;
  const mountPort = await mountPortOf(host, address, target.mountPort, run);
  const mounted = await mountRoot({ host, address, port: mountPort }, exported, run, { credential });
  if (!('fh' in mounted))
    throw rootFailure(
      target,
      mounted.status === 13 ? 'denied' : mounted.status === 2 ? 'gone' : 'other',
      mountStatus[mounted.status] ?? `MOUNT error ${mounted.status}`,
    );
  const below = target.components.slice(exported.split('/').filter(Boolean).length);
  let fh = mounted.fh;
  let fileid = 0n;
  // "." names the export's root itself: its file id, for the walk's loop check.
  for (const [i, component] of (below.length === 0 ? ['.'] : below).entries()) {
    const name = Buffer.from(component, 'utf8');
    const looked = await connection.call(
      { program: programs.nfs, version: 3, procedure: nfs3.procedures.lookup, args: lookup3Args(fh, name), credential },
      run.timeoutMs,
      run.signal,
      (reply) => decodeLookup3(reply, name),
    );
    if (!('kind' in looked))
      throw rootFailure(
        target,
        looked.status === nfs3.notdir ? 'notdir' : classify3(looked.status),
        nfs3Errors[looked.status] ?? `NFS3 error ${looked.status}`,
      );
    if (looked.kind !== 'dir') throw rootFailure(target, i >= below.length - 1 ? 'notdir' : 'gone', '');
    fh = looked.dir.fh;
    fileid = looked.dir.fileid;
  }
  return { name: Buffer.alloc(0), fh, fileid };
}

function reader3(connection: RpcConnection, credential: RpcCredential, pageBytes: number, run: ScanRun): DirReader {
  const detailed = run.analytics !== undefined;
  return {
    readPage: (dir, cookie, verifier) =>
      connection.call(
        { program: programs.nfs, version: 3, procedure: nfs3.procedures.readdirplus, args: readdirplus3Args(dir, cookie, verifier, pageBytes), credential },
        run.timeoutMs,
        run.signal,
        (reply) => decodeReaddirplus3(reply, cookie, detailed),
      ),
    lookup: (dir, name) =>
      connection.call(
        { program: programs.nfs, version: 3, procedure: nfs3.procedures.lookup, args: lookup3Args(dir, name), credential },
        run.timeoutMs,
        run.signal,
        (reply) => decodeLookup3(reply, name),
      ),
    classify: classify3,
    describe: (status) => nfs3Errors[status] ?? `NFS3 error ${status}`,
  };
}

/** v4.0: PUTROOTFH, LOOKUP down the path, GETFH and GETATTR in one COMPOUND. */
async function openRoot4(target: NfsTarget, connection: RpcConnection, credential: RpcCredential, run: ScanRun) {
  const found = await connection.call(
    { program: programs.nfs, version: 4, procedure: 1, args: rootLookup4Args(target.components), credential },
    run.timeoutMs,
    run.signal,
    (reply) => decodeRootLookup4(reply, target.components.length),
  );
  if (!('fh' in found)) {
    if (found.status === 10021) throw new DriverError(`host '${target.host}' does not speak NFS 4.0 (4.1+ needs a session, which dms does not open yet)`);
    throw rootFailure(
      target,
      found.status === nfs4status.notdir ? 'notdir' : classify4(found.status),
      nfs4Errors[found.status] ?? `NFS4 error ${found.status}`,
    );
  }
  if (found.type !== 2) throw rootFailure(target, 'notdir', '');
  return { name: Buffer.alloc(0), fh: found.fh, fileid: found.fileid };
}

function reader4(connection: RpcConnection, credential: RpcCredential, pageBytes: number, run: ScanRun): DirReader {
  const detailed = run.analytics !== undefined;
  return {
    readPage: (dir, cookie, verifier) =>
      connection.call(
        { program: programs.nfs, version: 4, procedure: 1, args: readdir4Args(dir, cookie, verifier, pageBytes, detailed), credential },
        run.timeoutMs,
        run.signal,
        (reply) => decodeReaddir4(reply, cookie, detailed),
      ),
    classify: classify4,
    describe: (status) => nfs4Errors[status] ?? `NFS4 error ${status}`,
  };
}

/** Failures of the scan's connection in plain words; a peer hanging up mid-walk is not asked whether it is an NFS server. */
function scanError(error: unknown, context: RpcContext): unknown {
  if (error instanceof RpcError && error.failure.kind === 'closed') {
    return new DriverError(`host '${context.host}' closed the connection on port ${context.port} during the scan (server stopped or export removed?)`);
  }
  return rpcDriverError(error, context);
}

/**
 * Walks the share's directory over one connection to the NFS service (`exported`: for v3, the
 * export the test found covering the path). AUTH_SYS as root, as the test presents itself.
 */
export async function scanNfs(
  target: NfsTarget,
  address: string,
  exported: string | undefined,
  run: ScanRun,
  options: NfsScanOptions = {},
): Promise<ScanResult & { skipped: SkippedDirectories }> {
  const { host, port, version } = target;
  const pageBytes = options.pageBytes ?? defaultPageBytes;
  const credential = authSys();
  const context: RpcContext = { host, port, service: `NFS v${version}`, timeoutMs: run.timeoutMs };
  const socket = await tcpConnect(address, port, host, run.timeoutMs, run.signal);
  const connection = new RpcConnection(socket, { maxReplyBytes: pageBytes + replySlack });
  try {
    const root =
      version === 3
        ? await openRoot3(target, exported ?? target.path, address, connection, credential, run)
        : await openRoot4(target, connection, credential, run);
    const reader = version === 3 ? reader3(connection, credential, pageBytes, run) : reader4(connection, credential, pageBytes, run);
    return await walkNfs(reader, root, {
      ...defaultWalkOptions,
      ...options,
      signal: run.signal,
      onProgress: run.onProgress.bind(run),
      ...(run.analytics === undefined ? {} : { analytics: run.analytics }),
    });
  } catch (error) {
    throw scanError(error, context);
  } finally {
    connection.close();
  }
}
