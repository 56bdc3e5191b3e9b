import type { EventBus } from '../ports/event-bus.js';
import type { Storage } from '../ports/storage.js';
import { isInformAbandoned, isInformNotAcknowledged, type TrapAllowedHosts, type TrapSender } from '../ports/notifier.js';
import { startTrapDispatcher } from '../events/trap-dispatcher.js';
import type { AgentSeed } from '../domain/snmp-config.js';
import { generateEngineId } from '../domain/snmp-engine-id.js';
import { SnmpAgentController, type SnmpAgentControllerOptions, type SnmpAgentState } from './snmp-agent-controller.js';
import type { DmsLog } from './log.js';

export type { SnmpAgentState } from './snmp-agent-controller.js';

export interface SnmpServices {
  agent(): SnmpAgentState;
  /** The persisted snmpEngineID (hex). */
  engineId: string;
  stop(): Promise<void>;
}

export interface SnmpServicesOptions {
  storage: Storage;
  events: EventBus;
  sender: TrapSender;
  /** `share_test_allowed_hosts` as it is when each trap is sent (TrapService.allowedHosts). */
  allowedHosts: () => Promise<TrapAllowedHosts>;
  enterpriseOid: string;
  /** The agent's settings written at the first start (DMS_SNMP_AGENT_PORT); stored ones win after. */
  agentSeed: AgentSeed;
  /** Test seam: the agent's limits and budget. */
  agentOptions?: SnmpAgentControllerOptions['agentOptions'];
  log: DmsLog;
  onSendError: (error: unknown) => void;
  /** An inform acknowledged (no error) or not after its retries: what raises and clears `trap_target_unreachable`. */
  onInformOutcome?: (target: { id: number; manager: string }, unacknowledged?: Error) => void;
}

/**
 * Traps to every active target whose band holds the event, and the agent when a port is
 * given. Neither can fail the service: a send error or an agent that cannot bind is a log
 * line, and the agent's state says so (readiness reports it).
 */
export async function startSnmpServices(options: SnmpServicesOptions): Promise<SnmpServices> {
  const { storage, events, sender, log } = options;
  let abandonedInforms = 0;
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
          if (isInformAbandoned(error)) abandonedInforms++;
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

  // The engine id exists before any agent runs: traps and informs are sent from it too.
  const engineId = await storage.snmpConfig.ensureEngineId(() => generateEngineId(options.enterpriseOid));
  await storage.snmpConfig.seedAgent(options.agentSeed);
  const agent = new SnmpAgentController({
    storage,
    events,
    enterpriseOid: options.enterpriseOid,
    log,
    ...(options.agentOptions ? { agentOptions: options.agentOptions } : {}),
  });
  await agent.start();

  return {
    agent: () => agent.state(),
    engineId,
    async stop() {
      // A manager that never answers would hold the stop for every re-send of its informs (and
      // a host's shutdown timeout would cut the storage close off): they are given up at once.
      sender.abandonInforms?.();
      await stopDispatcher();
      if (abandonedInforms > 0) log.warn({ abandoned_informs: abandonedInforms }, `SNMP informs abandoned at stop: ${abandonedInforms}`);
      await agent.stop();
      sender.close();
    },
  };
}
