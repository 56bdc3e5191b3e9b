import type { DmsEvent } from '../events/catalogue.js';
import type { SnmpVersion } from '../domain/trap.js';

export interface TrapTarget {
  id: number;
  version: SnmpVersion;
  /** host name, IPv4 or [IPv6] with optional :port (162 by default). */
  manager: string;
  community: string;
}

/** Notifier port: sends one event to one trap target (SNMP v1/v2c with net-snmp). */
export interface TrapSender {
  send(target: TrapTarget, event: DmsEvent): Promise<void>;
  close(): void;
}
