import type { DmsEvent } from '../domain/events.js';
import type { TrapNotification } from '../domain/trap.js';

/**
 * Where and how one notification goes. `notify_type` and the v3 fields may be left out (a
 * v1/v2c trap, as before v3); a v3 target carries its passphrases in clear, inside the process only.
 */
export interface TrapTarget extends Partial<Omit<TrapNotification, 'version'>> {
  id: number;
  version: TrapNotification['version'];
  /** host name, IPv4 or [IPv6] with optional :port (162 by default). */
  manager: string;
  community: string;
}

/**
 * An inform the manager did not acknowledge after every retry (or answered with a USM error
 * report, such as a wrong passphrase): the target is unreachable as far as dms can tell.
 * Recognised by `name`, as errors are across process boundaries.
 */
export class InformNotAcknowledgedError extends Error {
  override readonly name = 'InformNotAcknowledgedError';
  constructor(
    readonly manager: string,
    /** Datagrams sent: the first and every retry. */
    readonly attempts: number,
    readonly reason: string,
  ) {
    super(`inform to ${manager} not acknowledged after ${attempts} attempt(s): ${reason}`);
  }
}

export function isInformNotAcknowledged(error: unknown): error is InformNotAcknowledgedError {
  return error instanceof Error && error.name === 'InformNotAcknowledgedError';
}

/**
 * An inform the service stopped waiting for because it is stopping (TrapSender.abandonInforms):
 * it says nothing about the manager, so it raises no alert.
 */
export class InformAbandonedError extends Error {
  override readonly name = 'InformAbandonedError';
  constructor(readonly manager: string) {
    super(`inform to ${manager} abandoned: the service is stopping`);
  }
}

export function isInformAbandoned(error: unknown): error is InformAbandonedError {
  return error instanceof Error && error.name === 'InformAbandonedError';
}

/**
 * A trap to a manager `share_test_allowed_hosts` excludes when it is sent: refused for good (a
 * later change of the list does not send it then; docs/decisions/174-snmp-traps-as-a-channel.md).
 */
export class TrapHostRefusedError extends Error {
  override readonly name = 'TrapHostRefusedError';
}

export function isTrapHostRefused(error: unknown): error is TrapHostRefusedError {
  return error instanceof Error && error.name === 'TrapHostRefusedError';
}

/**
 * Where a trap may go (`share_test_allowed_hosts` as it is when the trap is sent). A sender
 * resolves the manager's host once, asks with every address found, and sends only to one of them.
 */
export interface TrapAllowedHosts {
  allows(host: string, addresses: readonly string[]): boolean;
}

/**
 * Notifier port: sends one event to one trap target (SNMP v1/v2c/v3 with net-snmp). A trap
 * resolves once the datagram is handed to the socket; an inform once the manager acknowledged
 * it, or rejects with InformNotAcknowledgedError after its retries.
 */
export interface TrapSender {
  /** Without `allowedHosts`, anywhere (tests of a sender alone); the core always passes it. */
  send(target: TrapTarget, event: DmsEvent, allowedHosts?: TrapAllowedHosts): Promise<void>;
  /**
   * The service is stopping: informs waiting for an acknowledgement, and any sent from now on,
   * reject at once with InformAbandonedError (a silent manager must not hold a stop for its
   * retries); traps still go out until close(). Optional: a sender without informs has none to abandon.
   */
  abandonInforms?(): void;
  close(): void;
}
