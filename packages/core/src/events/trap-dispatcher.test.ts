import { describe, expect, it } from 'vitest';
import type { TrapSender, TrapTarget } from '../ports/notifier.js';
import { makeEvent, type DmsEvent } from '../domain/events.js';
import { MemoryEventBus } from '../adapters/memory/memory-event-bus.js';
import { startTrapDispatcher, type TrapDispatchTarget } from './trap-dispatcher.js';

const at = new Date('2025-11-21T00:00:00Z');
const info = makeEvent('test_trap', 'info event', at); // severity 1
const warning = makeEvent('job_interrupted', 'warning event', at); // severity 3
const error = makeEvent('share_test_failed', 'error event', at); // severity 4

const target = (id: number, low: number, high: number, activation = 1): TrapDispatchTarget => ({
  id,
  activation,
  version: 'v2c',
  manager: `manager-${id}`,
  community: 'public',
  severity_low: low,
  severity_high: high,
});

/** Records sends; a target listed in `failFor` rejects. Above the port, so a fake is fine. */
class FakeSender implements TrapSender {
  readonly sent: Array<{ target: TrapTarget; event: DmsEvent }> = [];
  readonly #waiters: Array<{ count: number; resolve: () => void }> = [];
  constructor(private readonly failFor = new Set<number>()) {}
  async send(target: TrapTarget, event: DmsEvent): Promise<void> {
    // a turn of the event loop, like a socket write: stop() must wait for sends still in flight
    await new Promise((resolve) => setImmediate(resolve));
    if (this.failFor.has(target.id)) throw new Error(`manager ${target.id} down`);
    this.sent.push({ target, event });
    for (const waiter of this.#waiters.filter((w) => this.sent.length >= w.count)) waiter.resolve();
  }
  /** Resolves once `count` traps have been sent. */
  whenSent(count: number): Promise<void> {
    if (this.sent.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }
  close(): void {}
}

function setup(targets: () => Promise<TrapDispatchTarget[]>, sender = new FakeSender()) {
  const bus = new MemoryEventBus();
  const errors: Array<{ error: unknown; target: TrapDispatchTarget | undefined }> = [];
  const stop = startTrapDispatcher({
    bus,
    listTargets: targets,
    sender,
    onError: (error, target) => errors.push({ error, target }),
  });
  return { bus, sender, errors, stop };
}

const sentTo = (sender: FakeSender) => sender.sent.map(({ target, event }) => `${target.id}:${event.message}`).sort();

describe('startTrapDispatcher', () => {
  it('sends each event to every active target whose band contains its severity, bounds included', async () => {
    const targets = [target(1, 1, 5), target(2, 1, 1), target(3, 3, 4), target(4, 5, 5), target(5, 1, 5, 0)];
    const { bus, sender, stop } = setup(async () => targets);
    bus.publish(info);
    bus.publish(warning);
    bus.publish(error);
    await stop();
    expect(sentTo(sender)).toEqual(['1:info event', '1:warning event', '1:error event', '2:info event', '3:warning event', '3:error event'].sort());
  });

  it('sends nothing for an event another replica published: its trap went out there', async () => {
    const { bus, sender, stop } = setup(async () => [target(1, 1, 5)]);
    bus.publish({ ...info, origin: 'remote' });
    bus.publish({ ...warning, origin: 'local' });
    await stop();
    expect(sentTo(sender)).toEqual(['1:warning event']);
  });

  it('hands the sender only the TrapTarget fields', async () => {
    const { bus, sender, stop } = setup(async () => [target(7, 1, 5)]);
    bus.publish(info);
    await stop();
    expect(sender.sent[0]?.target).toEqual({ id: 7, version: 'v2c', manager: 'manager-7', community: 'public' });
  });

  it('returns from publish before anything is sent, and reads the targets at each event', async () => {
    let targets = [target(1, 1, 5)];
    const { bus, sender, stop } = setup(async () => targets);
    bus.publish(info);
    expect(sender.sent).toEqual([]);
    await sender.whenSent(1);
    targets = [target(1, 1, 5, 0), target(2, 1, 5)];
    bus.publish(warning);
    await stop();
    expect(sentTo(sender)).toEqual(['1:info event', '2:warning event']);
  });

  it('reports a failed send with its target and still sends to the others', async () => {
    const sender = new FakeSender(new Set([2]));
    const { bus, errors, stop } = setup(async () => [target(1, 1, 5), target(2, 1, 5), target(3, 1, 5)], sender);
    expect(() => bus.publish(error)).not.toThrow();
    await stop();
    expect(sentTo(sender)).toEqual(['1:error event', '3:error event']);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.target?.id).toBe(2);
    expect(String(errors[0]?.error)).toContain('manager 2 down');
  });

  it('reports a failing listTargets, even one that throws synchronously, without a target', async () => {
    const { bus, errors, stop } = setup(() => {
      throw new Error('storage unavailable');
    });
    expect(() => bus.publish(info)).not.toThrow();
    await stop();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.target).toBeUndefined();
    expect(String(errors[0]?.error)).toContain('storage unavailable');
  });

  it('survives an onError that throws', async () => {
    const bus = new MemoryEventBus((e) => {
      throw e;
    });
    const stop = startTrapDispatcher({
      bus,
      listTargets: async () => [target(1, 1, 5)],
      sender: new FakeSender(new Set([1])),
      onError: () => {
        throw new Error('logger broken');
      },
    });
    expect(() => bus.publish(info)).not.toThrow();
    await expect(stop()).resolves.toBeUndefined();
  });

  it('stops dispatching once stopped, after letting started sends finish', async () => {
    let listed = 0;
    const { bus, sender, stop } = setup(async () => {
      listed++;
      return [target(1, 1, 5)];
    });
    bus.publish(info);
    await stop();
    expect(sentTo(sender)).toEqual(['1:info event']);
    bus.publish(error);
    // stop() settles whatever was started; had the publish reached the dispatcher, it would be sent by now
    await stop();
    expect(listed).toBe(1);
    expect(sentTo(sender)).toEqual(['1:info event']);
  });
});
