import type { Storage } from '../ports/storage.js';
import type { ChannelRefresh, ChannelSenders, SendResult } from '../ports/channel-sender.js';
import { alertSources } from '../domain/alert.js';
import { alertMessage, channelReceives } from './notification-outbox.js';
import type { DeliveryRecord, NotificationChannelRecord } from '../ports/notification-store.js';
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
  onOutcome?: (channel: NotificationChannelRecord, result: SendResult, failuresBefore: number) => Promise<void>;
  onError?: (error: unknown) => void;
  /** Told of each attempt's outcome, by channel type (`/metrics`). */
  activity?: ActivityFeed;
  /** Sends an Alertmanager channel's open alerts again (every `refreshMs`, 60 s): it resolves those it stops hearing of. */
  refreshAlertmanager?: ChannelRefresh;
  refreshMs?: number;
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
    const claimed = await storage.notificationDeliveries.claimDue(
      now.toISOString(),
      new Date(now.getTime() + leaseMs).toISOString(),
      notificationDefaults.claimBatch,
    );
    await Promise.all(claimed.map((delivery) => this.#deliver(delivery).catch((error: unknown) => this.#options.onError(error))));
    if (now.getTime() - this.#refreshedAt >= this.#options.refreshMs) {
      this.#refreshedAt = now.getTime();
      await this.#refreshAlertmanagers(now).catch((error: unknown) => this.#options.onError(error));
    }
    return claimed.length;
  }

  /** Every replica does it: an Alertmanager takes the same alert again as one. */
  async #refreshAlertmanagers(now: Date): Promise<void> {
    const { storage, refreshAlertmanager, sendTimeoutMs } = this.#options;
    if (!refreshAlertmanager) return;
    const channels = (await storage.notificationChannels.listEnabled()).filter((channel) => channel.type === 'alertmanager');
    if (channels.length === 0) return;
    const open = (await Promise.all(alertSources.map((source) => storage.alerts.open(source)))).flat();
    const messages = open.map((alert) => alertMessage('alert.raised', alert, `evt_refresh_${alert.id}`, now));
    for (const channel of channels) {
      const mine = messages.filter((message) => channelReceives(channel, message)).slice(0, notificationDefaults.alertmanagerRefreshMax);
      if (mine.length > 0) await refreshAlertmanager(channel, mine, sendTimeoutMs);
    }
  }

  async #deliver(delivery: DeliveryRecord): Promise<void> {
    const { storage, senders, clock, random, sendTimeoutMs, onOutcome } = this.#options;
    const channel = await storage.notificationChannels.get(delivery.channel_id);
    if (!channel || !channel.enabled) {
      // disabled since it was queued: what it had queued is not sent (nor later, when enabled again)
      if (channel) await storage.notificationDeliveries.dropPending(channel.id, clock().toISOString(), 'the channel was disabled');
      return;
    }
    const result = await senders[channel.type](channel, delivery.message, sendTimeoutMs);
    const at = clock();
    const attempts = delivery.attempts + 1;
    const giveUp = new Date(delivery.give_up_at);
    let next: Date | null = null;
    if (!result.ok && !result.gone && at < giveUp) next = new Date(Math.min(at.getTime() + backoffMs(attempts, random), giveUp.getTime()));
    const outcome = result.ok ? 'delivered' : next ? 'retrying' : 'failed';
    await storage.notificationDeliveries.recordAttempt(delivery.id, {
      at: at.toISOString(),
      status_code: result.status_code,
      error: result.error,
      next_attempt_at: next?.toISOString() ?? null,
      outcome,
    });
    this.#options.activity?.report({ type: 'notification_attempt', channel_type: channel.type, outcome });
    if (result.gone) {
      // 410: the receiver says the channel is gone for good (docs/api.md#notification-channels)
      await storage.notificationChannels.update(channel.id, { enabled: false });
      await storage.notificationDeliveries.dropPending(channel.id, at.toISOString(), 'the receiver answered 410 Gone: the channel was disabled');
    }
    const counted = await storage.notificationChannels.recordOutcome(channel.id, result.ok, at.toISOString());
    if (counted && onOutcome) await onOutcome(channel, result, counted.failuresBefore);
  }
}
