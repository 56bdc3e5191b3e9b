import { DriverError } from '../../ports/share-driver.js';
import { formatMs } from '../share-drivers/net-probes.js';
import { RpcError } from './rpc-error.js';

export interface RpcContext {
  host: string;
  port: number;
  /** What was asked, for messages: "NFS v4", "MOUNT v3", "rpcbind". */
  service: string;
  timeoutMs: number;
}

/** Turns an RpcError into a DriverError a user can act on; other errors pass through. */
export function rpcDriverError(error: unknown, context: RpcContext): unknown {
  if (!(error instanceof RpcError)) return error;
  const { host, port, service } = context;
  const failure = error.failure;
  switch (failure.kind) {
    case 'prog_mismatch': {
      const offered = failure.low === failure.high ? `v${failure.low}` : `v${failure.low} to v${failure.high}`;
      return new DriverError(`server '${host}' does not speak ${service} (it offers ${offered})`);
    }
    case 'prog_unavail':
      return new DriverError(`server '${host}' has no ${service.split(' ')[0] ?? service} service on port ${port}`);
    case 'timeout':
      return new DriverError(`no answer to a ${service} request from host '${host}' on port ${port} within ${formatMs(context.timeoutMs)}`);
    case 'closed':
      return new DriverError(`host '${host}' closed the connection on port ${port} (is it an NFS server?)`);
    case 'not_rpc':
      return new DriverError(`host '${host}' does not answer as an RPC server on port ${port}`);
    case 'too_many':
      return new DriverError(`host '${host}' lists more than ${failure.max} ${failure.what} in its ${service} reply on port ${port}; dms reads no more`);
    case 'rpc_mismatch':
      return new DriverError(`host '${host}' does not speak ONC RPC version 2`);
    case 'auth_error':
      return new DriverError(`server '${host}' refused the ${service} request's credentials (RPC auth error ${failure.stat}; Kerberos required?)`);
    default:
      return new DriverError(`server '${host}' failed a ${service} request (${failure.kind})`);
  }
}

/** Runs an RPC exchange, rethrowing its failures in plain words. */
export async function inWords<T>(context: RpcContext, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw rpcDriverError(error, context);
  }
}
