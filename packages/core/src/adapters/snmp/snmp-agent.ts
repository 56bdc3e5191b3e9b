import type { RemoteInfo, Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import { defaultSnmpConfig, type SnmpConfig } from '../../domain/snmp-config.js';
import type { AgentOptions, AgentStatistics, SnmpAgent } from '../../ports/snmp-agent.js';
import { agentObjectOid, checkEnterpriseOid, systemOids } from './dms-mib.js';
import { snmpDefaults } from '../../defaults.js';
import { utf8Octets } from './event-varbinds.js';
import { netSnmp, type NetSnmpLibAgent, type NetSnmpMib } from './net-snmp.js';
import { netSnmpUsm, passesUsmAuthentication, type NetSnmpUsmAgent, type NetSnmpUsmAuthorizer } from './net-snmp-usm.js';
import { toNetSnmpUser } from '../../domain/snmp-v3-security.js';
import { generateEngineId } from '../../domain/snmp-engine-id.js';
import { snmpMessageVersion } from './snmp-message-version.js';
import { guardRequests } from './snmp-request-guard.js';
import { defaultSnmpRequestLimits, type SnmpRequestLimits } from './snmp-request-limits.js';
import { SnmpWorkBudget, type SnmpWorkBudgetOptions } from './snmp-work-budget.js';
import { StatisticsCache } from './statistics-cache.js';

export interface NetSnmpAgentOptions {
  /** sysObjectID and the arc of the dms objects (DMS_SNMP_ENTERPRISE_OID). */
  enterpriseOid?: string;
  /** Statistics younger than this are served from cache (1 s by default). */
  statisticsMaxAgeMs?: number;
  /** A statistics read slower than this answers with the last value (500 ms by default). */
  statisticsTimeoutMs?: number;
  /** Socket errors after start and failed statistics reads; the agent keeps running. */
  onError?(error: unknown): void;
  /** What one request may make the agent do (defaultSnmpRequestLimits); tests narrow them. */
  limits?: Partial<SnmpRequestLimits>;
  /** How much of the event loop the agent may take (SnmpWorkBudget; by default 100 ms a second, bursts of 50 ms). */
  budget?: SnmpWorkBudgetOptions;
  /**
   * Monotonic milliseconds that snmpEngineTime and sysUpTime count from (performance.now by
   * default); tests drive it to move the engine's time without waiting.
   */
  now?: () => number;
}

/** applications(64) + end-to-end(8): what dms is, in sysServices terms. */
const sysServices = 72;
const maxUnsigned32 = 2 ** 32 - 1;
const maxSigned32 = 2 ** 31 - 1;

/** SNMP-FRAMEWORK-MIB snmpEngine group (RFC 3411): in the view with the system group and the dms objects. */
const snmpEngineOids = {
  snmpEngineID: '1.3.6.1.6.3.10.2.1.1',
  snmpEngineBoots: '1.3.6.1.6.3.10.2.1.2',
  snmpEngineTime: '1.3.6.1.6.3.10.2.1.3',
  snmpEngineMaxMessageSize: '1.3.6.1.6.3.10.2.1.4',
} as const;

interface Scalar {
  name: string;
  oid: string;
  type: number;
  read(): unknown;
}

/**
 * SNMP agent over net-snmp: the system group and the DMS-MIB agent objects, read-only.
 * Every value is read when a request asks for it (configuration, uptime, statistics
 * through a ~1 s cache), so reconfigure() and new statistics show at the next request.
 * Only the configured version and community get an answer; anything else is dropped,
 * which a manager sees as a timeout, as with any agent. Every answer is bounded
 * (SnmpRequestLimits), and the agent as a whole gets a bounded share of the event loop
 * (SnmpWorkBudget): it shares one with every REST user.
 */
export class NetSnmpAgent implements SnmpAgent {
  readonly #enterpriseOid: string;
  readonly #settings: NetSnmpAgentOptions;
  readonly #limits: SnmpRequestLimits;
  readonly #budget: SnmpWorkBudget;
  readonly #now: () => number;
  #config: SnmpConfig = defaultSnmpConfig;
  #agent: (NetSnmpLibAgent & NetSnmpUsmAgent) | undefined;
  #sockets: Socket[] = [];

  constructor(options: NetSnmpAgentOptions = {}) {
    this.#enterpriseOid = checkEnterpriseOid(options.enterpriseOid ?? snmpDefaults.enterpriseOid);
    this.#settings = options;
    this.#limits = { ...defaultSnmpRequestLimits, ...options.limits };
    this.#budget = new SnmpWorkBudget(options.budget);
    this.#now = options.now ?? (() => performance.now());
  }

  async start(options: AgentOptions): Promise<void> {
    if (this.#agent) throw new Error('SNMP agent already started');
    const host = options.host.replace(/^\[(.*)\]$/, '$1');
    const where = `UDP ${isIPv6(host) ? `[${host}]` : host}:${options.port}`;
    if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
      throw new Error(`SNMP agent cannot listen on ${where}: invalid port`);
    }
    this.#config = { ...options.config };
    const engine = options.engine ?? { engineId: generateEngineId(this.#enterpriseOid), boots: 1 };

    let agent: NetSnmpLibAgent & NetSnmpUsmAgent;
    try {
      agent = netSnmp.createAgent(
        {
          port: options.port,
          address: host,
          transport: isIPv6(host) ? 'udp6' : 'udp4',
          disableAuthorization: false,
          // Read-only for the community and every v3 user through MAX-ACCESS: every object the agent
          // serves is read-only, so a Set answers notWritable. (net-snmp's Simple access control
          // model loses the answer of a request whose providers finish asynchronously.)
          accessControlModelType: netSnmp.AccessControlModelType.None,
          engineID: engine.engineId,
        } as Parameters<typeof netSnmp.createAgent>[0],
        // Wrong communities, digests and malformed datagrams land here (with the user's keys:
        // never logged); a real agent only counts them.
        () => {},
      ) as NetSnmpLibAgent & NetSnmpUsmAgent;
    } catch (error) {
      throw new Error(`SNMP agent cannot listen on ${where}: ${messageOf(error)}`, { cause: error });
    }
    this.#agent = agent;
    this.#sockets = Object.values(agent.listener.sockets);
    this.#startEngine(agent, engine.boots);
    agent.getAuthorizer().addCommunity(this.#config.community);
    this.#setUsers(agent, [], this.#config);
    this.#register(agent.getMib(), options, engine.engineId);
    guardRequests(agent, { limits: this.#limits, charge: (address, ms) => this.#budget.charge(address, ms) });
    for (const socket of this.#sockets) this.#screen(agent, socket);

    try {
      await Promise.all(this.#sockets.map(bound));
    } catch (error) {
      await this.stop();
      throw new Error(`SNMP agent cannot listen on ${where}: ${messageOf(error)}`, { cause: error });
    }
    for (const socket of this.#sockets) socket.on('error', (error) => this.#report(error));
  }

  reconfigure(config: SnmpConfig): void {
    const previous = this.#config;
    this.#config = { ...config };
    if (this.#agent && previous.community !== config.community) {
      const authorizer = this.#agent.getAuthorizer();
      authorizer.deleteCommunity(previous.community);
      authorizer.addCommunity(config.community);
    }
    if (this.#agent)
      this.#setUsers(
        this.#agent,
        previous.users.map((user) => user.security_name),
        this.#config,
      );
  }

  /**
   * net-snmp's engine has boots 0 and a time frozen at 10 s. The persisted boots counter of
   * this start takes their place, and the time counts seconds since this start (RFC 3414
   * §2.2.2), which is what discovery reports and responses carry and what the time window of
   * authenticated requests is checked against (passesUsmAuthentication).
   */
  #startEngine(agent: NetSnmpUsmAgent, boots: number): void {
    const startedAt = this.#now();
    agent.engine.engineBoots = boots;
    Object.defineProperty(agent.engine, 'engineTime', {
      get: () => Math.min(Math.floor((this.#now() - startedAt) / 1000), maxSigned32),
      configurable: true,
    });
  }

  /** The v3 users of `config` replace those named `previous`. */
  #setUsers(agent: NetSnmpLibAgent, previous: readonly string[], config: SnmpConfig): void {
    const authorizer = agent.getAuthorizer() as unknown as NetSnmpUsmAuthorizer;
    for (const name of previous) authorizer.deleteUser(name);
    for (const user of config.users) authorizer.addUser(toNetSnmpUser(user, netSnmpUsm));
  }

  async stop(): Promise<void> {
    const sockets = this.#sockets;
    this.#agent = undefined;
    this.#sockets = [];
    await Promise.all(sockets.map(closeSocket));
  }

  /**
   * Swaps net-snmp's message listener for one that first drops, unparsed, what the agent would
   * not answer: an oversized datagram, another SNMP version, anything beyond the work budget.
   */
  #screen(agent: NetSnmpLibAgent, socket: Socket): void {
    socket.removeAllListeners('message');
    socket.on('message', (datagram: Buffer, rinfo: RemoteInfo) => {
      if (datagram.length > this.#limits.maxMessageOctets) return;
      const version = snmpMessageVersion(datagram);
      const wanted = this.#config.version === 'v1' ? netSnmp.Version1 : netSnmp.Version2c;
      // v3 is answered once a user is configured, beside the community's version
      const v3 = version === netSnmpUsm.Version3 && this.#config.users.length > 0;
      if (version !== wanted && !v3) return;
      if (!this.#budget.allows(rinfo.address)) return;
      const started = performance.now();
      try {
        if (v3 && !passesUsmAuthentication(agent as NetSnmpLibAgent & NetSnmpUsmAgent, datagram, rinfo, socket)) return;
        agent.onMsg(socket, datagram, rinfo);
      } catch (error) {
        // a throw here would be an uncaught exception in a socket listener: the process would die
        this.#report(error);
      } finally {
        this.#budget.charge(rinfo.address, performance.now() - started);
      }
    });
  }

  #register(mib: NetSnmpMib, options: AgentOptions, engineId: string): void {
    const { OctetString, OID, TimeTicks, Integer, Gauge } = netSnmp.ObjectType;
    const startedAt = this.#now();
    const statistics = new StatisticsCache({
      read: options.statistics,
      ...(this.#settings.statisticsMaxAgeMs === undefined ? {} : { maxAgeMs: this.#settings.statisticsMaxAgeMs }),
      ...(this.#settings.statisticsTimeoutMs === undefined ? {} : { timeoutMs: this.#settings.statisticsTimeoutMs }),
      onError: (error) => this.#report(error),
    });
    const gauge = (pick: (s: AgentStatistics) => number) => async () => toGauge(pick(await statistics.get()));
    const scalars: Scalar[] = [
      { name: 'sysDescr', oid: systemOids.sysDescr, type: OctetString, read: () => utf8Octets(options.sysDescr) },
      { name: 'sysObjectID', oid: systemOids.sysObjectID, type: OID, read: () => this.#enterpriseOid },
      {
        name: 'sysUpTime',
        oid: systemOids.sysUpTime,
        type: TimeTicks,
        read: () => Math.floor((this.#now() - startedAt) / 10) % (maxUnsigned32 + 1),
      },
      { name: 'sysContact', oid: systemOids.sysContact, type: OctetString, read: () => utf8Octets(this.#config.contact) },
      { name: 'sysName', oid: systemOids.sysName, type: OctetString, read: () => utf8Octets(options.sysName) },
      { name: 'sysLocation', oid: systemOids.sysLocation, type: OctetString, read: () => utf8Octets(this.#config.location) },
      { name: 'sysServices', oid: systemOids.sysServices, type: Integer, read: () => sysServices },
      { name: 'snmpEngineID', oid: snmpEngineOids.snmpEngineID, type: OctetString, read: () => Buffer.from(engineId, 'hex') },
      { name: 'snmpEngineBoots', oid: snmpEngineOids.snmpEngineBoots, type: Integer, read: () => this.#agent?.engine.engineBoots ?? 0 },
      { name: 'snmpEngineTime', oid: snmpEngineOids.snmpEngineTime, type: Integer, read: () => this.#agent?.engine.engineTime ?? 0 },
      { name: 'snmpEngineMaxMessageSize', oid: snmpEngineOids.snmpEngineMaxMessageSize, type: Integer, read: () => this.#limits.maxMessageOctets },
      { name: 'dmsShareCount', oid: agentObjectOid(this.#enterpriseOid, 'dmsShareCount'), type: Gauge, read: gauge((s) => s.shareCount) },
      { name: 'dmsJobsQueued', oid: agentObjectOid(this.#enterpriseOid, 'dmsJobsQueued'), type: Gauge, read: gauge((s) => s.jobs.queued) },
      { name: 'dmsJobsWorking', oid: agentObjectOid(this.#enterpriseOid, 'dmsJobsWorking'), type: Gauge, read: gauge((s) => s.jobs.working) },
      {
        name: 'dmsJobsCompleted',
        oid: agentObjectOid(this.#enterpriseOid, 'dmsJobsCompleted'),
        type: Gauge,
        read: gauge((s) => s.jobs.completed),
      },
      { name: 'dmsJobsFailed', oid: agentObjectOid(this.#enterpriseOid, 'dmsJobsFailed'), type: Gauge, read: gauge((s) => s.jobs.failed) },
    ];

    for (const scalar of scalars) {
      mib.registerProvider({
        name: scalar.name,
        type: netSnmp.MibProviderType.Scalar,
        oid: scalar.oid,
        scalarType: scalar.type,
        maxAccess: netSnmp.MaxAccess['read-only'],
        handler: (request) => {
          void (async () => {
            try {
              request.instanceNode.value = await scalar.read();
            } catch (error) {
              this.#report(error);
            }
            try {
              request.done();
            } catch (error) {
              this.#report(error);
            }
          })();
        },
      });
      // net-snmp answers noSuchInstance, without calling the handler, until an instance has a value
      mib.setScalarValue(scalar.name, scalar.type === OctetString ? Buffer.alloc(0) : scalar.type === OID ? this.#enterpriseOid : 0);
    }
  }

  #report(error: unknown): void {
    try {
      this.#settings.onError?.(error);
    } catch {
      // the error sink failed: the agent must still answer
    }
  }
}

function bound(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    const onListening = () => {
      socket.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => {
      socket.off('listening', onListening);
      reject(error);
    };
    socket.once('listening', onListening);
    socket.once('error', onError);
  });
}

function closeSocket(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    try {
      socket.close(() => resolve());
    } catch {
      // never bound, or already closed after a bind error
      resolve();
    }
  });
}

function toGauge(value: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(Math.trunc(value), 0), maxUnsigned32) : 0;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
