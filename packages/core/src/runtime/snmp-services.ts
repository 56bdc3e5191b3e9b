import type { EventBus } from '../ports/event-bus.js';
import type { Storage } from '../ports/storage.js';
import { isInformAbandoned, isInformNotAcknowledged, isTrapHostRefused, type TrapAllowedHosts, type TrapSender } from '../ports/notifier.js';
import { startTrapDispatcher } from '../events/trap-dispatcher.js';
import type { NotificationDispatcher, TrapChannelSend } from '../notifications/notification-dispatcher.js';
import { trapEventOf, trapQueue } from '../notifications/trap-channel.js';
import type { AgentSeed } from '../domain/snmp-config.js';
import { generateEngineId } from '../domain/snmp-engine-id.js';
import { SnmpAgentController, type SnmpAgentControllerOptions, type SnmpAgentState } from './snmp-agent-controller.js';
import type { DmsLog } from './log.js';

export type { SnmpAgentState } from './snmp-agent-controller.js';

export interface SnmpServices {
  agent(): SnmpAgentState;
  /** The persisted snmpEngineID (hex). */
  engineId: string;
  /** Stops queueing events for the targets; resolves once those announced so far are queued. */
  settle(): Promise<void>;
  /** The service is stopping: an inform waiting for its acknowledgement is given up now (it stays queued). */
  abandonInforms(): void;
  stop(): Promise<void>;
}

export interface SnmpServicesOptions {
  storage: Storage;
  events: EventBus;
  sender: TrapSender;
  /** Sends the traps queued on each target's channel (docs/decisions/174-snmp-traps-as-a-channel.md). */
  notifications: NotificationDispatcher;
  clock: () => Date;
  newId: () => string;
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
  // Each local event is queued for every active target whose band holds it; the notification
  // dispatcher sends the queue, retried, in order and once across replicas.
  let stopDispatcher = startTrapDispatcher({
    bus: events,
    listTargets: () => storage.traps.listActive(),
    sender: trapQueue({ storage, clock: options.clock, newId: options.newId, queued: () => options.notifications.wake() }),
    onError: (error, target) => {
      options.onSendError(error);
      log.warn({ err: error, trap: target?.id, manager: target?.manager }, 'SNMP trap not queued');
    },
  });
  // every trap checked where it is sent, against the list as it is then
  const sendTrap: TrapChannelSend = async (trapId, message) => {
    const target = await storage.traps.get(trapId);
    // deactivated since it was queued: what waits is dropped, as a disabled channel's is
    if (!target || target.activation !== 1) return { ok: false, gone: true, status_code: null, error: 'the trap target was deactivated' };
    if (!('event' in message.data)) return { ok: false, status_code: null, error: `a ${message.type} message is not a trap` };
    try {
      await sender.send(target, trapEventOf(message.data), await options.allowedHosts());
      if (target.notify_type === 'inform') options.onInformOutcome?.(target);
      return { ok: true, status_code: null, error: null };
    } catch (error) {
      if (isInformNotAcknowledged(error)) options.onInformOutcome?.(target, error);
      if (isInformAbandoned(error)) abandonedInforms++;
      options.onSendError(error);
      log.warn({ err: error, trap: target.id, manager: target.manager }, 'SNMP trap not sent');
      return {
        ok: false,
        status_code: null,
        error: error instanceof Error ? error.message.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 300) : 'send failed',
        ...(isTrapHostRefused(error) ? { final: true } : {}),
      };
    }
  };
  options.notifications.sendTraps(sendTrap);

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

  // Stops the fan-out once: what it started is queued first.
  const settle = async () => {
    const stop = stopDispatcher;
    stopDispatcher = async () => {};
    await stop();
  };
  return {
    agent: () => agent.state(),
    engineId,
    settle,
    // A manager that never answers would hold the stop for every re-send of its informs (and
    // a host's shutdown timeout would cut the storage close off): they are given up at once.
    abandonInforms: () => sender.abandonInforms?.(),
    async stop() {
      sender.abandonInforms?.();
      await settle();
      options.notifications.sendTraps(undefined);
      if (abandonedInforms > 0) log.warn({ abandoned_informs: abandonedInforms }, `SNMP informs abandoned at stop: ${abandonedInforms}`);
      await agent.stop();
      sender.close();
    },
  };
}
