/** Why an ONC RPC exchange failed; nfs-messages turns each into plain words. */
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
  | { kind: 'not_rpc' }
  /** A reply listing more items than dms keeps (`max`), such as a MOUNT export list. */
  | { kind: 'too_many'; what: string; max: number };

export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(readonly failure: RpcFailure) {
    super(`RPC call failed: ${failure.kind}`);
  }
}
