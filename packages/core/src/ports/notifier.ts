import type { DmsEvent } from '../domain/events.js';
import type { SnmpVersion } from '../domain/trap.js';

export interface TrapTarget {
  id: number;
  version: SnmpVersion;
  /** host name, IPv4 or [IPv6] with optional :port (162 by default). */
  manager: string;
  community: string;
}

/**
 * Where a trap may go (`share_test_allowed_hosts` as it is when the trap is sent). A sender
 * resolves the manager's host once, asks with every address found, and sends only to one of them.
 */
export interface TrapAllowedHosts {
  allows(host: string, addresses: readonly string[]): boolean;
}

/** Notifier port: sends one event to one trap target (SNMP v1/v2c with net-snmp). */
export interface TrapSender {
  /** Without `allowedHosts`, anywhere (tests of a sender alone); the core always passes it. */
  send(target: TrapTarget, event: DmsEvent, allowedHosts?: TrapAllowedHosts): Promise<void>;
  close(): void;
}
