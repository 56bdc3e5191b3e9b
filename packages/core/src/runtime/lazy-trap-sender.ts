import type { TrapSender } from '../ports/notifier.js';

/**
 * A TrapSender made at its first send by `load`: the service's sender is net-snmp's
 * (adapters/snmp/snmp-trap-sender.ts), about 2 MB of heap that a service without a trap target
 * never uses (decision 188). Until then a stop has nothing to abandon or close; asked for while
 * the sender is being made, it is passed on once the sender is there.
 */
export function lazyTrapSender(load: () => Promise<TrapSender>): TrapSender {
  let loaded: Promise<TrapSender> | undefined;
  let informsAbandoned = false;
  let closed = false;
  const sender = () => {
    if (loaded === undefined) {
      // Informs abandoned before the first send: the sender made now abandons those it is given.
      const abandoned = informsAbandoned;
      loaded = load().then((made) => {
        if (abandoned) made.abandonInforms?.();
        return made;
      });
    }
    return loaded;
  };
  return {
    async send(target, event, allowedHosts) {
      if (closed) throw new Error('trap sender is closed');
      return (await sender()).send(target, event, allowedHosts);
    },
    abandonInforms() {
      informsAbandoned = true;
      void loaded?.then(
        (made) => made.abandonInforms?.(),
        () => undefined,
      );
    },
    close() {
      closed = true;
      void loaded?.then(
        (made) => made.close(),
        () => undefined,
      );
    },
  };
}
