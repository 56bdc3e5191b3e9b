import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { parseManager } from '../../domain/trap.js';
import { eventCatalogue, type DmsEvent } from '../../domain/events.js';
import type { TrapAllowedHosts, TrapSender, TrapTarget } from '../../ports/notifier.js';
import { checkEnterpriseOid, notificationOid } from './dms-mib.js';
import { snmpDefaults } from '../../defaults.js';
import { eventVarbinds } from './event-varbinds.js';
import { netSnmp, type NetSnmpSession, type NetSnmpVarbind } from './net-snmp.js';

export interface NetSnmpTrapSenderOptions {
  /** Enterprise arc of DMS-MIB (DMS_SNMP_ENTERPRISE_OID); snmpDefaults.enterpriseOid by default. */
  enterpriseOid?: string;
  /** A send that has not reached the socket by then (DNS, a stuck socket) is rejected. */
  timeoutMs?: number;
  /** agent-addr of v1 traps; 0.0.0.0 says "unknown" where a wrong address would mislead. */
  agentAddress?: string;
}

type Finish = (error?: Error) => void;

/**
 * Notifier over net-snmp. One UDP session per send, closed as soon as the datagram is
 * handed to the socket: traps are rare, and nothing outlives a send, so nothing leaks
 * when targets change or the service stops.
 */
export class NetSnmpTrapSender implements TrapSender {
  readonly #enterpriseOid: string;
  readonly #timeoutMs: number;
  readonly #agentAddress: string;
  readonly #pending = new Set<Finish>();
  #closed = false;

  constructor(options: NetSnmpTrapSenderOptions = {}) {
    this.#enterpriseOid = checkEnterpriseOid(options.enterpriseOid ?? snmpDefaults.enterpriseOid);
    this.#timeoutMs = options.timeoutMs ?? 5000;
    this.#agentAddress = options.agentAddress ?? '0.0.0.0';
    if (isIP(this.#agentAddress) !== 4) throw new Error('agentAddress must be an IPv4 address');
  }

  send(target: TrapTarget, event: DmsEvent, allowedHosts?: TrapAllowedHosts): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.#closed) return reject(new Error('trap sender is closed'));
      const entry = eventCatalogue[event.name];
      if (!entry) return reject(new Error(`unknown event ${String(event.name)}`));
      let varbinds: NetSnmpVarbind[];
      try {
        // built first: an event its notification cannot carry (an alert event without its alert) opens no socket
        varbinds = eventVarbinds(this.#enterpriseOid, event);
      } catch (error) {
        return reject(error instanceof Error ? error : new Error(String(error)));
      }
      const { host, port } = parseManager(target.manager);
      if (!Number.isInteger(port) || port < 1 || port > 65535 || host === '') {
        return reject(new Error(`invalid trap manager ${target.manager}`));
      }
      const v1 = target.version === 'v1';
      if (!v1 && target.version !== 'v2c') return reject(new Error(`unsupported SNMP version ${String(target.version)}`));

      let session: NetSnmpSession | undefined;
      let settled = false;
      const finish: Finish = (error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.#pending.delete(finish);
        if (session) closeQuietly(session);
        if (error) reject(error);
        else resolve();
      };
      const timer = setTimeout(() => finish(new Error(`trap to ${target.manager} not sent within ${this.#timeoutMs} ms`)), this.#timeoutMs);
      this.#pending.add(finish);

      resolveAddresses(host)
        .then((addresses) => {
          if (settled) return;
          // The datagram goes to an address of this one lookup, checked: a DNS answer that
          // changes afterwards (rebinding) reaches nothing.
          if (allowedHosts && !allowedHosts.allows(host, addresses)) {
            const resolved = isIP(host) === 0 ? ` (it resolves to ${addresses.slice(0, 3).join(', ')}${addresses.length > 3 ? ', …' : ''})` : '';
            throw new Error(`trap not sent: manager host ${host}${resolved} is not among the share_test_allowed_hosts of this server`);
          }
          const address = addresses[0];
          if (address === undefined) throw new Error(`manager host ${host} not found`);
          const family = isIP(address);
          session = netSnmp.createSession(address, target.community, {
            version: v1 ? netSnmp.Version1 : netSnmp.Version2c,
            transport: family === 6 ? 'udp6' : 'udp4',
            trapPort: port,
          });
          // v1: net-snmp splits enterprise.N into enterprise + specific-trap N, generic 6;
          // v2c: snmpTrapOID.0 = dmsNotifications.N (enterprise.0.N).
          const oid = v1 ? `${this.#enterpriseOid}.${entry.notification}` : notificationOid(this.#enterpriseOid, entry.notification);
          session.trap(oid, varbinds, { agentAddr: this.#agentAddress, upTime: upTime() }, (error) => finish(error ?? undefined));
        })
        .catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
    });
  }

  /** Rejects sends still in flight and refuses new ones. */
  close(): void {
    this.#closed = true;
    for (const finish of [...this.#pending]) finish(new Error('trap sender closed'));
  }
}

/** Every address of the manager's host, in the resolver's order (the first is where a trap goes). */
async function resolveAddresses(host: string): Promise<string[]> {
  if (isIP(host) !== 0) return [host];
  return (await lookup(host, { all: true })).map((entry) => entry.address);
}

/** Hundredths of a second since the service started, wrapped like TimeTicks; never 0, which net-snmp ignores. */
function upTime(): number {
  return Math.floor(process.uptime() * 100) % 2 ** 32 || 1;
}

function closeQuietly(session: NetSnmpSession): void {
  try {
    session.close();
  } catch {
    // already closed by a socket error: nothing left to release
  }
}
