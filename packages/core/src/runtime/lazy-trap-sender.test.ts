import { describe, expect, it } from 'vitest';
import { makeEvent } from '../domain/events.js';
import type { TrapSender, TrapTarget } from '../ports/notifier.js';
import { lazyTrapSender } from './lazy-trap-sender.js';

/** A sender that writes down what it is asked, and how many were made. */
function recordingSenders() {
  const calls: string[] = [];
  let made = 0;
  const load = async (): Promise<TrapSender> => {
    made += 1;
    return {
      send: async (target) => void calls.push(`send ${target.manager}`),
      abandonInforms: () => void calls.push('abandonInforms'),
      close: () => void calls.push('close'),
    };
  };
  return { calls, load, made: () => made };
}

const target: TrapTarget = { id: 1, version: 'v2c', manager: '127.0.0.1:1162', community: 'public' };
const event = makeEvent('share_test_failed', 'unreachable', new Date('2026-11-29T08:00:00Z'));

describe('lazyTrapSender (decision 188)', () => {
  it('makes its sender at the first send, once, and sends through it', async () => {
    const senders = recordingSenders();
    const sender = lazyTrapSender(senders.load);
    expect(senders.made()).toBe(0);
    await sender.send(target, event);
    await sender.send({ ...target, manager: '127.0.0.1:2162' }, event);
    expect(senders.made()).toBe(1);
    expect(senders.calls).toEqual(['send 127.0.0.1:1162', 'send 127.0.0.1:2162']);
    sender.abandonInforms?.();
    sender.close();
    await Promise.resolve();
    expect(senders.calls.slice(2)).toEqual(['abandonInforms', 'close']);
  });

  it('told to abandon informs before its first send, abandons them in the sender it makes', async () => {
    const senders = recordingSenders();
    const sender = lazyTrapSender(senders.load);
    sender.abandonInforms?.();
    await sender.send(target, event);
    expect(senders.calls).toEqual(['abandonInforms', 'send 127.0.0.1:1162']);
  });

  it('closed before any send, makes none and refuses a send', async () => {
    const senders = recordingSenders();
    const sender = lazyTrapSender(senders.load);
    sender.abandonInforms?.();
    sender.close();
    await expect(sender.send(target, event)).rejects.toThrow('trap sender is closed');
    expect(senders.made()).toBe(0);
    expect(senders.calls).toEqual([]);
  });

  it('passes on a stop asked for while the sender was being made', async () => {
    const senders = recordingSenders();
    const sender = lazyTrapSender(senders.load);
    const sent = sender.send(target, event);
    sender.abandonInforms?.();
    sender.close();
    await sent.catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(senders.made()).toBe(1);
    expect(senders.calls.filter((call) => call !== 'send 127.0.0.1:1162')).toEqual(['abandonInforms', 'close']);
    await expect(sender.send(target, event)).rejects.toThrow('trap sender is closed');
  });
});
