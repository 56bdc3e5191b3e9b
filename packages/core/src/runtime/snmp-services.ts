import { hostname } from 'node:os';
import type { EventBus } from '../ports/event-bus.js';
import type { Storage } from '../ports/storage.js';
import { isInformNotAcknowledged, type TrapAllowedHosts, type TrapSender } from '../ports/notifier.js';
import { startTrapDispatcher } from '../events/trap-dispatcher.js';
import type { NetSnmpAgent } from '../adapters/snmp/snmp-agent.js';
import type { DmsLog } from './log.js';

export type SnmpAgentState = { state: 'off' } | { state: 'listening'; port: number } | { state: 'failed'; port: number; reason: string };

export interface SnmpServices {
  agent(): SnmpAgentState;
  stop(): Promise<void>;
}

export interface SnmpServicesOptions {
  storage: Storage;
  events: EventBus;
  sender: TrapSender;
  /** `share_test_allowed_hosts` as it is when each trap is sent (TrapService.allowedHosts). */
  allowedHosts: () => Promise<TrapAllowedHosts>;
  enterpriseOid: string;
  /** Where the agent listens; undefined: no agent. */
  agent: { host: string; port: number } | undefined;
  log: DmsLog;
  onSendError: (error: unknown) => void;
  /** An inform acknowledged (no error) or not after its retries: what raises and clears `trap_target_unreachable`. */
  onInformOutcome?: (target: { id: number; manager: string }, unacknowledged?: Error) => void;
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'EADDRINUSE') return 'the port is in use by another program';
  if (code === 'EACCES') return 'no permission to bind the port (ports below 1024 need root or CAP_NET_BIND_SERVICE)';
  return error instanceof Error ? error.message : String(error);
}

/**
 * Traps to every active target whose band holds the event, and the agent when a port is
 * given. Neither can fail the service: a send error or an agent that cannot bind is a log
 * line, and the agent's state says so (readiness reports it).
 */
export async function startSnmpServices(options: SnmpServicesOptions): Promise<SnmpServices> {
  const { storage, events, sender, log } = options;
  const stopDispatcher = startTrapDispatcher({
    bus: events,
    listTargets: () => storage.traps.listActive(),
    // every trap checked where it is sent, against the list as it is then
    sender: {
      async send(target, event) {
        try {
          await sender.send(target, event, await options.allowedHosts());
          if (target.notify_type === 'inform') options.onInformOutcome?.(target);
        } catch (error) {
          if (isInformNotAcknowledged(error)) options.onInformOutcome?.(target, error);
          throw error;
        }
      },
      close: () => sender.close(),
    },
    onError: (error, target) => {
      options.onSendError(error);
      log.warn({ err: error, trap: target?.id, manager: target?.manager }, 'SNMP trap not sent');
    },
  });

  let state: SnmpAgentState = { state: 'off' };
  let agent: NetSnmpAgent | undefined;
  let unsubscribe = () => {};
  if (options.agent) {
    const { host, port } = options.agent;
    // Loaded here, not at the top: net-snmp only for a service that runs the agent.
    const { NetSnmpAgent } = await import('../adapters/snmp/snmp-agent.js');
    const candidate = new NetSnmpAgent({ enterpriseOid: options.enterpriseOid });
    try {
      await candidate.start({
        host,
        port,
        config: await storage.snmpConfig.get(),
        sysName: hostname(),
        sysDescr: 'dms data management service for NAS storage',
        statistics: async () => ({ shareCount: await storage.shares.count(), jobs: await storage.jobs.countByStatus() }),
      });
      agent = candidate;
      state = { state: 'listening', port };
      log.info({ port }, 'SNMP agent listening');
      const stopListening = events.subscribe((event) => {
        if (event.name !== 'configuration_changed' || event.resource?.type !== 'snmp_server_configuration') return;
        storage.snmpConfig.get().then(
          (next) => agent?.reconfigure(next),
          (error: unknown) => log.error({ err: error }, 'SNMP agent not reconfigured'),
        );
      });
      unsubscribe = () => void stopListening();
    } catch (error) {
      state = { state: 'failed', port, reason: reasonOf(error) };
      log.error({ port }, `SNMP agent not started on UDP port ${port}: ${state.reason}; set DMS_SNMP_AGENT_PORT to a free port`);
      await candidate.stop().catch(() => undefined);
    }
  }

  return {
    agent: () => state,
    async stop() {
      unsubscribe();
      await stopDispatcher();
      await agent?.stop();
      sender.close();
    },
  };
}
