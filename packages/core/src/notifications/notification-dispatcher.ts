import type { Storage, Stores } from '../ports/storage.js';
import type { ChannelRefresh, ChannelSenders, SendResult } from '../ports/channel-sender.js';
import { alertSources } from '../domain/alert.js';
import { alertMessage, channelReceives, retryUntil } from './notification-outbox.js';
import { digestMessage, digestPeriodEnd } from './notification-digest.js';
import type { DeliveryAttempt, DeliveryRecord, DispatchChannelRecord } from '../ports/notification-store.js';
import type { NotificationMessage } from '../domain/notification-message.js';

/**
 * Sends one queued event to one SNMP trap target (docs/decisions/174-snmp-traps-as-a-channel.md):
 * the target as it is now, bounded by its own inform retries. Resolves every outcome.
 */
export type TrapChannelSend = (trapId: number, message: NotificationMessage) => Promise<SendResult>;
import { notificationDefaults } from '../defaults.js';
import type { ActivityFeed } from '../ports/activity-feed.js';

export interface NotificationDispatcherOptions {
  storage: Storage;
  senders: ChannelSenders;
  clock: () => Date;
  /** [0, 1): the jitter of the backoff (Math.random; tests seed it). */
  random?: () => number;
  /** How often it looks for due deliveries queued elsewhere or due again (1 s). */
  pollMs?: number;
  /** How long a claimed delivery stays this dispatcher's (60 s): longer than any send. */
  leaseMs?: number;
  sendTimeoutMs?: number;
  /** Each attempt's outcome on its channel, `failuresBefore` the failures in a row before it (the failing alert). */
  onOutcome?: (channel: DispatchChannelRecord, result: SendResult, failuresBefore: number) => Promise<void>;
  onError?: (error: unknown) => void;
  /** Told of each attempt's outcome, by channel type (`/metrics`). */
  activity?: ActivityFeed;
  /** Sends an Alertmanager channel's open alerts again (every `refreshMs`, 60 s): it resolves those it stops hearing of. */
  refreshAlertmanager?: ChannelRefresh;
  refreshMs?: number;
}

/** The ids of a run's deliveries from `index` on: those let go when the run stops short. */
const idsFrom = (deliveries: readonly DeliveryRecord[], index: number) => deliveries.slice(index).map((delivery) => delivery.id);

/** A send made and what it came to, not yet written. */
interface Attempt {
  delivery: DeliveryRecord;
  result: SendResult;
  at: Date;
  record: DeliveryAttempt & { outcome: 'delivered' | 'retrying' | 'failed' };
}

/**
 * The wait before attempt n+1 (n ≥ 1 attempts made): 5 s doubling up to an hour, each wait
 * drawn between its half and its whole (jitter), so receivers back from an outage are not
 * met by every dms at once.
 */
export function backoffMs(attempts: number, random: () => number): number {
  const ceiling = Math.min(notificationDefaults.maxBackoffMs, notificationDefaults.firstBackoffMs * 2 ** Math.min(attempts - 1, 30));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

/**
 * Sends the queued notifications (docs/decisions/168-notification-deliveries.md): each round
 * claims every channel's oldest due delivery, sends them (channels side by side, a channel's
 * own one at a time), and writes each outcome: delivered, tried again after the backoff, or
 * failed once 24 hours have passed. Runs on every replica; a claim is a lease, so each
 * delivery is sent by one of them, and one left by a replica that died is taken up after it.
 */
export class NotificationDispatcher {
  readonly #options: Required<Omit<NotificationDispatcherOptions, 'onOutcome' | 'refreshAlertmanager' | 'activity'>> &
    Pick<NotificationDispatcherOptions, 'onOutcome' | 'refreshAlertmanager' | 'activity'>;
  #refreshedAt = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<number> | undefined;
  #again = false;
  #stopped = true;
  #sendTrap: TrapChannelSend | undefined;

  constructor(options: NotificationDispatcherOptions) {
    this.#options = {
      random: Math.random,
      pollMs: notificationDefaults.pollMs,
      leaseMs: notificationDefaults.leaseMs,
      sendTimeoutMs: notificationDefaults.sendTimeoutMs,
      onError: () => {},
      refreshMs: notificationDefaults.alertmanagerRefreshMs,
      ...options,
    };
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Stops looking; resolves once the round under way has written its outcomes. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#round?.catch(() => 0);
  }

  /** How trap targets' queues are sent (the SNMP services, while they run); without it they wait. */
  sendTraps(send: TrapChannelSend | undefined): void {
    this.#sendTrap = send;
  }

  /** Something was queued here: a round now rather than at the next poll. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#round) this.#again = true;
    else this.#schedule(0);
  }

  /** One round: claims, sends and records; resolves how many deliveries it attempted. */
  runOnce(): Promise<number> {
    if (this.#round) {
      this.#again = true;
      return this.#round;
    }
    const round = this.#claimAndSend().finally(() => {
      this.#round = undefined;
    });
    this.#round = round;
    return round;
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.runOnce()
        .catch((error: unknown) => this.#options.onError(error))
        .then((attempted) => {
          if (this.#stopped) return;
          const more = this.#again || (attempted ?? 0) > 0;
          this.#again = false;
          this.#schedule(more ? 0 : this.#options.pollMs);
        });
    }, delayMs);
    this.#timer.unref?.();
  }

  async #claimAndSend(): Promise<number> {
    const { storage, clock, leaseMs } = this.#options;
    const now = clock();
    await this.#makeDigests(now).catch((error: unknown) => this.#options.onError(error));
    const claimed = await storage.notificationDeliveries.claimDue(
      now.toISOString(),
      new Date(now.getTime() + leaseMs).toISOString(),
      notificationDefaults.claimBatch,
    );
    const attempted = await Promise.all(
      claimed.map((head) =>
        this.#deliverRun(head, now).catch((error: unknown) => {
          this.#options.onError(error);
          return 1;
        }),
      ),
    );
    if (now.getTime() - this.#refreshedAt >= this.#options.refreshMs) {
      this.#refreshedAt = now.getTime();
      await this.#refreshAlertmanagers(now).catch((error: unknown) => this.#options.onError(error));
    }
    return attempted.reduce((sum, count) => sum + count, 0);
  }

  /**
   * Each channel whose period has ended with events waiting gets one digest, queued as one
   * delivery (docs/decisions/173-notification-digests.md): the period is claimed, its items
   * taken and the digest queued in one transaction, so a replica that loses the claim, or one
   * that stops half-way, makes none.
   */
  async #makeDigests(now: Date): Promise<void> {
    const { storage } = this.#options;
    for (const { channel_id, oldest } of await storage.notificationDigests.waiting()) {
      const channel = await storage.notificationChannels.get(channel_id);
      if (!channel) continue;
      if (!channel.enabled) {
        await storage.notificationDigests.drop(channel.id);
        continue;
      }
      const until = digestPeriodEnd(channel, now);
      if (Date.parse(oldest) >= until.getTime()) continue;
      await storage.transaction(async (stores) => {
        if (!(await stores.notificationDigests.claimPeriod(channel.id, until.toISOString()))) return;
        const items = await stores.notificationDigests.take(channel.id, until.toISOString());
        if (items.length === 0) return;
        await stores.notificationDeliveries.enqueue([channel.id], digestMessage(channel, items, until), now.toISOString(), retryUntil(now));
      });
    }
  }

  /** Every replica does it: an Alertmanager takes the same alert again as one. */
  async #refreshAlertmanagers(now: Date): Promise<void> {
    const { storage, refreshAlertmanager, sendTimeoutMs } = this.#options;
    if (!refreshAlertmanager) return;
    const channels = (await storage.notificationChannels.listEnabled()).filter((channel) => channel.type === 'alertmanager');
    if (channels.length === 0) return;
    // A silenced alert is not sent, not even again (docs/decisions/171-silences.md): the Alertmanager resolves it meanwhile.
    const open = (await Promise.all(alertSources.map((source) => storage.alerts.open(source)))).flat().filter((alert) => !alert.silenced);
    const messages = open.map((alert) => alertMessage('alert.raised', alert, `evt_refresh_${alert.id}`, now));
    for (const channel of channels) {
      const mine = messages.filter((message) => channelReceives(channel, message)).slice(0, notificationDefaults.alertmanagerRefreshMax);
      if (mine.length > 0) await refreshAlertmanager(channel, mine, sendTimeoutMs);
    }
  }

  #send(channel: DispatchChannelRecord, message: NotificationMessage, timeoutMs: number): Promise<SendResult> {
    if (channel.type !== 'snmp_trap') return this.#options.senders[channel.type]({ ...channel, type: channel.type }, message, timeoutMs);
    if (!this.#sendTrap || channel.trap_id === null) return Promise.resolve({ ok: false, status_code: null, error: 'the SNMP notifier is not running' });
    return this.#sendTrap(channel.trap_id, message);
  }

  /**
   * A channel's head, then, while each goes through, the deliveries queued behind it (up to
   * `runLength`), one after the other: a long queue is not sent one round per message. The
   * first that fails lets go of the rest, which wait behind it. The channel is read once for the
   * run; what the attempts came to is written `recordBatch` at a time in one transaction (a commit
   * a delivery cost more than the send to a receiver nearby), a failure at once, and the head's
   * success in the transaction that claims the deliveries behind it. Resolves how many were attempted.
   */
  async #deliverRun(head: DeliveryRecord, now: Date): Promise<number> {
    const { leaseMs } = this.#options;
    const channel = await this.#channelFor(head.channel_id);
    if (!channel) return 1;
    const first = await this.#attempt(channel, head);
    if (!first.result.ok) {
      await this.#record(channel, [first]);
      return 1;
    }
    let following: DeliveryRecord[] = [];
    await this.#record(channel, [first], async (stores) => {
      following = await stores.notificationDeliveries.claimFollowing(
        head.channel_id,
        head.id,
        now.toISOString(),
        new Date(now.getTime() + leaseMs).toISOString(),
        notificationDefaults.runLength - 1,
      );
    });
    let batch: Attempt[] = [];
    for (let index = 0; index < following.length; index += 1) {
      // stopping: what is left is let go at once, for the next start (or another replica)
      if (this.#stopped) {
        await this.#record(channel, batch, (stores) => stores.notificationDeliveries.release(idsFrom(following, index)));
        return 1 + index;
      }
      const attempt = await this.#attempt(channel, following[index]!);
      batch.push(attempt);
      if (!attempt.result.ok) {
        await this.#record(channel, batch, (stores) => stores.notificationDeliveries.release(idsFrom(following, index + 1)));
        return 2 + index;
      }
      if (batch.length >= notificationDefaults.recordBatch) {
        await this.#record(channel, batch);
        batch = [];
      }
    }
    await this.#record(channel, batch);
    return 1 + following.length;
  }

  /** The channel as it is now, to send on; undefined (and its queue dropped) once it is disabled. */
  async #channelFor(channelId: number): Promise<DispatchChannelRecord | undefined> {
    const { storage, clock } = this.#options;
    const channel = await storage.notificationChannels.getForDispatch(channelId);
    if (channel?.enabled) return channel;
    // disabled since it was queued: what it had queued is not sent (nor later, when enabled again)
    if (channel) await storage.notificationDeliveries.dropPending(channel.id, clock().toISOString(), 'the channel was disabled');
    return undefined;
  }

  /** One send and what it came to: delivered, tried again after the backoff, or failed for good. */
  async #attempt(channel: DispatchChannelRecord, delivery: DeliveryRecord): Promise<Attempt> {
    const { clock, random, sendTimeoutMs } = this.#options;
    const result = await this.#send(channel, delivery.message, sendTimeoutMs);
    const at = clock();
    const giveUp = new Date(delivery.give_up_at);
    let next: Date | null = null;
    if (!result.ok && !result.gone && !result.final && at < giveUp)
      next = new Date(Math.min(at.getTime() + backoffMs(delivery.attempts + 1, random), giveUp.getTime()));
    const outcome = result.ok ? 'delivered' : next ? 'retrying' : 'failed';
    const record: Attempt['record'] = {
      at: at.toISOString(),
      status_code: result.status_code,
      error: result.error,
      next_attempt_at: next?.toISOString() ?? null,
      outcome,
    };
    return { delivery, result, at, record };
  }

  /**
   * Writes attempts, what they count on their channel and a 410's disabling in one transaction
   * (with `alsoDo`'s writes: the claim of what follows a run's head), then tells what they came to.
   */
  async #record(channel: DispatchChannelRecord, attempts: readonly Attempt[], alsoDo?: (stores: Stores) => Promise<void>): Promise<void> {
    if (attempts.length === 0 && !alsoDo) return;
    const { storage, onOutcome } = this.#options;
    const counts = await storage.transaction(async (stores) => {
      const counts: Array<{ failuresBefore: number } | undefined> = [];
      for (const { delivery, result, at, record } of attempts) {
        await stores.notificationDeliveries.recordAttempt(delivery.id, record);
        if (result.gone) {
          // 410: the receiver says the channel is gone for good (docs/api.md#notification-channels)
          await stores.notificationChannels.update(channel.id, { enabled: false });
          await stores.notificationDeliveries.dropPending(channel.id, at.toISOString(), 'the receiver answered 410 Gone: the channel was disabled');
        }
        counts.push(await stores.notificationChannels.recordOutcome(channel.id, result.ok, at.toISOString()));
      }
      await alsoDo?.(stores);
      return counts;
    });
    for (const [index, { result, record }] of attempts.entries()) {
      this.#options.activity?.report({ type: 'notification_attempt', channel_type: channel.type, outcome: record.outcome });
      const counted = counts[index];
      if (counted && onOutcome) await onOutcome(channel, result, counted.failuresBefore);
    }
  }
}
