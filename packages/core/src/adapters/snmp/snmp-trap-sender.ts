import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { randomBytes } from 'node:crypto';
import { parseManager } from '../../domain/trap.js';
import { eventCatalogue, type DmsEvent } from '../../domain/events.js';
import {
  InformAbandonedError,
  InformNotAcknowledgedError,
  TrapHostRefusedError,
  type TrapAllowedHosts,
  type TrapSender,
  type TrapTarget,
} from '../../ports/notifier.js';
import { toNetSnmpUser } from '../../domain/snmp-v3-security.js';
import { checkEnterpriseOid, notificationOid } from './dms-mib.js';
import { snmpDefaults } from '../../defaults.js';
import { eventVarbinds } from './event-varbinds.js';
import { netSnmp, type NetSnmpSession, type NetSnmpSessionOptions, type NetSnmpVarbind } from './net-snmp.js';
import { peerCall } from '../../tracing/spans.js';

export interface NetSnmpTrapSenderOptions {
  /** Enterprise arc of DMS-MIB (DMS_SNMP_ENTERPRISE_OID); snmpDefaults.enterpriseOid by default. */
  enterpriseOid?: string;
  /** A send that has not reached the socket by then (DNS, a stuck socket) is rejected. */
  timeoutMs?: number;
  /** agent-addr of v1 traps; 0.0.0.0 says "unknown" where a wrong address would mislead. */
  agentAddress?: string;
  /**
   * The engine id (hex) v3 traps are sent from: the agent's persisted `engine_id`, which a
   * manager names in `createUser -e`. Read at every v3 send. Without it, one random id for the
   * life of this sender (what net-snmp would pick), so a manager cannot know it in advance.
   */
  engineId?: () => string | Promise<string>;
  /** Informs: wait before the first re-send, the re-sends, and the factor between waits (backoff). */
  inform?: Partial<InformRetries>;
}

export interface InformRetries {
  timeoutMs: number;
  retries: number;
  backoff: number;
}

/** 1 s, then 2 s, 4 s, 8 s: four datagrams over 15 s before a manager is called unreachable. */
export const defaultInformRetries: InformRetries = { timeoutMs: 1000, retries: 3, backoff: 2 };

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
  readonly #engineId: () => string | Promise<string>;
  readonly #inform: InformRetries;
  readonly #pending = new Set<Finish>();
  /** The informs among #pending: what abandonInforms() settles at once. */
  readonly #pendingInforms = new Map<Finish, string>();
  #informsAbandoned = false;
  #closed = false;

  constructor(options: NetSnmpTrapSenderOptions = {}) {
    this.#enterpriseOid = checkEnterpriseOid(options.enterpriseOid ?? snmpDefaults.enterpriseOid);
    this.#timeoutMs = options.timeoutMs ?? 5000;
    this.#agentAddress = options.agentAddress ?? '0.0.0.0';
    if (isIP(this.#agentAddress) !== 4) throw new Error('agentAddress must be an IPv4 address');
    const fallbackEngineId = `8000b98380${randomBytes(12).toString('hex')}`;
    this.#engineId = options.engineId ?? (() => fallbackEngineId);
    this.#inform = { ...defaultInformRetries, ...options.inform };
  }

  send(target: TrapTarget, event: DmsEvent, allowedHosts?: TrapAllowedHosts): Promise<void> {
    const attributes = {
      'server.address': target.manager,
      'dms.snmp.version': target.version,
      'dms.snmp.notify_type': target.notify_type,
      'dms.event': event.name,
    };
    return peerCall('snmp send', attributes, () => this.#send(target, event, allowedHosts));
  }

  #send(target: TrapTarget, event: DmsEvent, allowedHosts?: TrapAllowedHosts): Promise<void> {
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
      const v3 = target.version === 'v3';
      if (!v1 && !v3 && target.version !== 'v2c') return reject(new Error(`unsupported SNMP version ${String(target.version)}`));
      const inform = target.notify_type === 'inform';
      if (inform && v1) return reject(new Error('SNMPv1 has no informs'));
      if (inform && this.#informsAbandoned) return reject(new InformAbandonedError(target.manager));
      let user: ReturnType<typeof toNetSnmpUser> | undefined;
      if (v3) {
        const missing = missingV3Field(target);
        if (missing)
          return reject(
            new Error(
              `SNMPv3 notification to ${target.manager} not sent: ${missing} is not set (a passphrase is forgotten when the manager changes; set it again)`,
            ),
          );
        user = toNetSnmpUser(target as Parameters<typeof toNetSnmpUser>[0], netSnmp);
      }

      let session: NetSnmpSession | undefined;
      let settled = false;
      const finish: Finish = (error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.#pending.delete(finish);
        this.#pendingInforms.delete(finish);
        if (session) closeQuietly(session);
        if (error) reject(error);
        else resolve();
      };
      // An inform may wait for every re-send; a trap only for the socket.
      const { timeoutMs, retries, backoff } = this.#inform;
      const informWaitMs = inform ? Array.from({ length: retries + 1 }, (_, i) => timeoutMs * backoff ** i).reduce((a, b) => a + b, 0) : 0;
      const limitMs = this.#timeoutMs + informWaitMs;
      const timer = setTimeout(() => finish(new Error(`${inform ? 'inform' : 'trap'} to ${target.manager} not sent within ${limitMs} ms`)), limitMs);
      this.#pending.add(finish);
      if (inform) this.#pendingInforms.set(finish, target.manager);

      Promise.all([resolveAddresses(host), v3 ? this.#engineId() : undefined])
        .then(([addresses, engineId]) => {
          if (settled) return;
          // The datagram goes to an address of this one lookup, checked: a DNS answer that
          // changes afterwards (rebinding) reaches nothing.
          if (allowedHosts && !allowedHosts.allows(host, addresses)) {
            const resolved = isIP(host) === 0 ? ` (it resolves to ${addresses.slice(0, 3).join(', ')}${addresses.length > 3 ? ', …' : ''})` : '';
            throw new TrapHostRefusedError(`trap not sent: manager host ${host}${resolved} is not among the share_test_allowed_hosts of this server`);
          }
          const address = addresses[0];
          if (address === undefined) throw new Error(`manager host ${host} not found`);
          const family = isIP(address);
          const sessionOptions: NetSnmpSessionOptions = {
            version: v1 ? netSnmp.Version1 : v3 ? netSnmp.Version3 : netSnmp.Version2c,
            transport: family === 6 ? 'udp6' : 'udp4',
            trapPort: port,
            ...(inform ? { timeout: timeoutMs, retries, backoff } : {}),
            ...(engineId === undefined ? {} : { engineID: engineId }),
          };
          session = user ? netSnmp.createV3Session(address, user, sessionOptions) : netSnmp.createSession(address, target.community, sessionOptions);
          // v1: net-snmp splits enterprise.N into enterprise + specific-trap N, generic 6;
          // v2c and v3: snmpTrapOID.0 = dmsNotifications.N (enterprise.0.N).
          const oid = v1 ? `${this.#enterpriseOid}.${entry.notification}` : notificationOid(this.#enterpriseOid, entry.notification);
          if (inform) {
            session.inform(oid, varbinds, { upTime: upTime() }, (error) => finish(error ? unacknowledged(target.manager, retries + 1, error) : undefined));
          } else {
            session.trap(oid, varbinds, { agentAddr: this.#agentAddress, upTime: upTime() }, (error) => finish(error ?? undefined));
          }
        })
        .catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
    });
  }

  /** Rejects the informs still waiting (their sessions close: no more re-sends) and refuses new ones; traps still go out. */
  abandonInforms(): void {
    this.#informsAbandoned = true;
    for (const [finish, manager] of [...this.#pendingInforms]) finish(new InformAbandonedError(manager));
  }

  /** Rejects sends still in flight and refuses new ones. */
  close(): void {
    this.#closed = true;
    for (const finish of [...this.#pending]) finish(new Error('trap sender closed'));
  }
}

/** The first v3 field the target's level needs and lacks (a passphrase forgotten on a move). */
function missingV3Field(target: TrapTarget): string | undefined {
  if (!target.security_name) return 'security_name';
  const level = target.security_level;
  if (!level) return 'security_level';
  const needs =
    level === 'noAuthNoPriv'
      ? []
      : level === 'authNoPriv'
        ? (['auth_protocol', 'auth_passphrase'] as const)
        : (['auth_protocol', 'auth_passphrase', 'priv_protocol', 'priv_passphrase'] as const);
  return needs.find((field) => !target[field]);
}

/**
 * No acknowledgement after every re-send, or a USM error report in its place (unknown user,
 * wrong digest: a passphrase the manager does not share): unreachable as far as dms can tell.
 */
function unacknowledged(manager: string, attempts: number, error: Error): Error {
  if (error.name === 'RequestTimedOutError') return new InformNotAcknowledgedError(manager, attempts, 'no acknowledgement');
  if (error.name === 'ResponseInvalidError')
    return new InformNotAcknowledgedError(manager, attempts, `the manager answered with an error report (${error.message})`);
  return error;
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
