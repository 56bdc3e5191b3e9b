import { hostname } from 'node:os';
import { isIPv6 } from 'node:net';
import type { EventBus } from '../ports/event-bus.js';
import type { Storage } from '../ports/storage.js';
import type { NetSnmpAgent, NetSnmpAgentOptions } from '../adapters/snmp/snmp-agent.js';
import { agentEndpointChanged, type SnmpConfig } from '../domain/snmp-config.js';
import { generateEngineId } from '../domain/snmp-engine-id.js';
import type { DmsLog } from './log.js';

/** What the agent is doing now: what the console and /readyz show. */
export type SnmpAgentState =
  { state: 'off' } | { state: 'listening'; address: string; port: number } | { state: 'failed'; address: string; port: number; reason: string };

export interface SnmpAgentControllerOptions {
  storage: Storage;
  events: EventBus;
  enterpriseOid: string;
  log: DmsLog;
  /** Test seam: the agent's own options (limits, budget). */
  agentOptions?: Omit<NetSnmpAgentOptions, 'enterpriseOid'>;
  /**
   * How often the stored configuration is read again (5 s): a change made by `dms snmp agent
   * set` in another process, or on another replica, reaches no event bus of this one.
   */
  pollMs?: number;
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'EADDRINUSE') return 'the port is in use by another program';
  if (code === 'EACCES') return 'no permission to bind the port (ports below 1024 need root or CAP_NET_BIND_SERVICE)';
  if (code === 'EADDRNOTAVAIL') return 'the address is not one of this host';
  return error instanceof Error ? error.message : String(error);
}

const where = (address: string, port: number) => `UDP ${isIPv6(address) ? `[${address}]` : address}:${port}`;

/**
 * Runs the agent as the stored configuration says: on or off, at its address and port. A
 * change of those restarts the socket (a new engine boot) without restarting the service;
 * anything else reconfigures the running agent at once. Changes apply one at a time, in order.
 */
export class SnmpAgentController {
  #state: SnmpAgentState = { state: 'off' };
  #agent: NetSnmpAgent | undefined;
  #running: SnmpConfig | undefined;
  #queue: Promise<void> = Promise.resolve();
  #unsubscribe: () => void = () => {};
  #stopped = false;
  /** The configuration last applied, as JSON; undefined forces the next apply. */
  #applied: string | undefined;

  constructor(private readonly options: SnmpAgentControllerOptions) {}

  state(): SnmpAgentState {
    return this.#state;
  }

  /** Applies the stored configuration now and after every change of it. */
  async start(): Promise<void> {
    const unsubscribe = this.options.events.subscribe((event) => {
      if (event.name !== 'configuration_changed' || event.resource?.type !== 'snmp_server_configuration') return;
      void this.apply();
    });
    const poll = setInterval(() => void this.apply(), this.options.pollMs ?? 5000);
    poll.unref();
    this.#unsubscribe = () => {
      clearInterval(poll);
      void unsubscribe();
    };
    await this.apply();
  }

  /** Reads the configuration and brings the agent in line with it; never throws (the state says what failed). */
  apply(): Promise<void> {
    this.#queue = this.#queue.then(async () => {
      if (this.#stopped) return;
      try {
        await this.#apply(await this.options.storage.snmpConfig.get());
      } catch (error) {
        this.options.log.error({ err: error }, 'SNMP agent not reconfigured');
      }
    });
    return this.#queue;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe();
    await this.#queue;
    await this.#close();
    this.#state = { state: 'off' };
  }

  async #apply(config: SnmpConfig): Promise<void> {
    const { log } = this.options;
    // a poll that finds what was applied already: nothing to do (a failed bind is retried on the next change)
    if (this.#applied === JSON.stringify(config)) return;
    this.#applied = JSON.stringify(config);
    if (!config.agent_enabled) {
      if (this.#agent) log.info({}, 'SNMP agent stopped (agent_enabled is false)');
      await this.#close();
      this.#state = { state: 'off' };
      return;
    }
    if (this.#agent && this.#running && !agentEndpointChanged(this.#running, config)) {
      this.#agent.reconfigure(config);
      this.#running = config;
      return;
    }
    await this.#close();
    await this.#open(config);
  }

  async #open(config: SnmpConfig): Promise<void> {
    const { storage, log } = this.options;
    const { agent_address: address, agent_port: port } = config;
    // Loaded here, not at the top: net-snmp only for a service that runs the agent.
    const { NetSnmpAgent } = await import('../adapters/snmp/snmp-agent.js');
    const candidate = new NetSnmpAgent({
      onError: (error) => log.warn({ err: error }, 'SNMP agent error'),
      ...this.options.agentOptions,
      enterpriseOid: this.options.enterpriseOid,
    });
    try {
      // RFC 3414 §2.2.2: every (re)start of the engine is a new boot; its time starts at 0.
      const engine = await storage.snmpConfig.bootEngine(() => generateEngineId(this.options.enterpriseOid));
      await candidate.start({
        host: address,
        port,
        config,
        engine,
        sysName: hostname(),
        sysDescr: 'dms data management service for NAS storage',
        statistics: async () => ({ shareCount: await storage.shares.count(), jobs: await storage.jobs.countByStatus() }),
      });
      this.#agent = candidate;
      this.#running = config;
      this.#state = { state: 'listening', address, port };
      log.info({ address, port, engine_boots: engine.boots }, 'SNMP agent listening');
    } catch (error) {
      this.#state = { state: 'failed', address, port, reason: reasonOf(error) };
      log.error(
        { address, port },
        `SNMP agent not started on ${where(address, port)}: ${this.#state.reason}; change agent_address or agent_port of the SNMP server configuration`,
      );
      await candidate.stop().catch(() => undefined);
    }
  }

  async #close(): Promise<void> {
    const agent = this.#agent;
    this.#agent = undefined;
    this.#running = undefined;
    await agent?.stop();
  }
}
