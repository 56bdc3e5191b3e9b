import type { EventBus } from '../ports/event-bus.js';
import type { TrapSender, TrapTarget } from '../ports/notifier.js';
import type { DmsEvent } from '../domain/events.js';

/** A stored trap as the dispatcher needs it (the storage row, id as a number). */
export interface TrapDispatchTarget extends TrapTarget {
  activation: number;
  severity_low: number;
  severity_high: number;
}

export interface TrapDispatcherOptions {
  bus: EventBus;
  /** Read at every event, so a trap created, changed or deactivated counts at once. */
  listTargets(): Promise<TrapDispatchTarget[]>;
  sender: TrapSender;
  /** A failed send (with its target) or a failed listTargets (without one). */
  onError(error: unknown, target?: TrapDispatchTarget): void;
}

/** Stops dispatching new events; resolves once the sends already started have settled. */
export type StopTrapDispatcher = () => Promise<void>;

export function receivesEvent(target: TrapDispatchTarget, event: DmsEvent): boolean {
  return target.activation === 1 && target.severity_low <= event.severity && event.severity <= target.severity_high;
}

/**
 * Hands every local event on the bus to `sender` for each active trap whose severity band
 * contains it; one received from another replica was handed there. In the service the sender
 * queues it on the target's channel, sent by the notification dispatcher
 * (docs/decisions/174-snmp-traps-as-a-channel.md). The publisher only starts the work:
 * listing and sending run detached, and every failure goes to onError, so a slow or broken
 * manager never delays or breaks the code that raised the event.
 */
export function startTrapDispatcher(options: TrapDispatcherOptions): StopTrapDispatcher {
  const { bus, listTargets, sender, onError } = options;
  const inFlight = new Set<Promise<void>>();

  const report = (error: unknown, target?: TrapDispatchTarget) => {
    try {
      onError(error, target);
    } catch {
      // the error sink itself failed: nothing sensible is left to tell
    }
  };

  const dispatch = async (event: DmsEvent) => {
    let targets: TrapDispatchTarget[];
    try {
      targets = await listTargets();
    } catch (error) {
      report(error);
      return;
    }
    await Promise.all(
      targets
        .filter((target) => receivesEvent(target, event))
        .map(async (target) => {
          try {
            await sender.send(toTrapTarget(target), event);
          } catch (error) {
            report(error, target);
          }
        }),
    );
  };

  const unsubscribe = bus.subscribe((event) => {
    // An event's trap is sent once, by the replica where it happened.
    if (event.origin === 'remote') return;
    // a microtask away, so even a listTargets that throws synchronously stays out of publish()
    const work = Promise.resolve().then(() => dispatch(event));
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });

  return async () => {
    unsubscribe();
    await Promise.allSettled([...inFlight]);
  };
}

/** Only what the port asks for: no band or activation leaks into the sender. */
function toTrapTarget({ activation: _activation, severity_low: _low, severity_high: _high, ...target }: TrapDispatchTarget): TrapTarget {
  return target;
}
