import type { ListPage, ListQuery } from '../list-query/list-query.js';
import type { NotificationChannelRow } from '../tables/notification-channels.table.js';
import type { NotificationDeliveryRow } from '../tables/notification-deliveries.table.js';
import type { NotificationMessage } from '../domain/notification-message.js';
import type { ChannelType, DispatchChannelType } from '../domain/notification-channel.js';

/** A channel as the core sees it: JSON parsed, enabled a boolean, secrets opened (inside the process only). */
export interface NotificationChannelRecord extends Omit<
  NotificationChannelRow,
  'type' | 'trap_id' | 'enabled' | 'sources' | 'settings' | 'secrets' | 'created_at' | 'updated_at'
> {
  type: ChannelType;
  enabled: boolean;
  sources: string[] | null;
  settings: Record<string, unknown>;
  /** In clear: a webhook's `secret`, an e-mail `password`, an ntfy `token`. */
  secrets: Record<string, string>;
  created_at: string;
  updated_at: string;
}
/** What the fan-out needs of a channel to route an event to it, or to its digest. */
export type ChannelRoute = Pick<NotificationChannelRecord, 'id' | 'type' | 'enabled' | 'min_level' | 'sources' | 'digest'>;

/**
 * A channel as the dispatcher sends on it: one of the API's, or a trap target's queue (type
 * `snmp_trap`, `trap_id` its target: docs/decisions/174-snmp-traps-as-a-channel.md).
 */
export type DispatchChannelRecord = Omit<NotificationChannelRecord, 'type'> & { type: DispatchChannelType; trap_id: number | null };

export type NotificationChannelInsert = Omit<
  NotificationChannelRecord,
  'id' | 'consecutive_failures' | 'failing_since' | 'digest_hour' | 'digested_until' | 'created_at' | 'updated_at'
> & { digest_hour?: number };
export type NotificationChannelPatch = Partial<NotificationChannelInsert>;

/** The API's channels; a trap target's queue is none of them (found by `getForDispatch` only). */
export interface NotificationChannelStore {
  list(query: ListQuery): Promise<ListPage<NotificationChannelRecord>>;
  get(id: number): Promise<NotificationChannelRecord | undefined>;
  /** Any channel the dispatcher may send on, a trap target's queue too. */
  getForDispatch(id: number): Promise<DispatchChannelRecord | undefined>;
  /** The id of the trap target's queue, made at its first trap (and enabled again if a deactivation disabled it). */
  trapChannel(trapId: number): Promise<number>;
  findByName(name: string): Promise<NotificationChannelRecord | undefined>;
  /** Enabled channels, secrets opened (an Alertmanager's token, to send its open alerts again). */
  listEnabled(): Promise<NotificationChannelRecord[]>;
  /** Enabled channels as the events' fan-out routes by them: no secret opened (each raise reads them). */
  listRoutes(): Promise<ChannelRoute[]>;
  create(values: NotificationChannelInsert): Promise<NotificationChannelRecord>;
  update(id: number, patch: NotificationChannelPatch): Promise<NotificationChannelRecord | undefined>;
  delete(id: number): Promise<boolean>;
  /**
   * Counts an attempt's outcome: a success resets the failures, a failure adds one (and sets
   * `failing_since` at the first). Resolves the count before this outcome, or undefined when the channel is gone.
   */
  recordOutcome(id: number, success: boolean, at: string): Promise<{ failuresBefore: number } | undefined>;
}

export type DeliveryRecord = Omit<NotificationDeliveryRow, 'message'> & { message: NotificationMessage };

/** What one attempt ended in. */
export interface DeliveryAttempt {
  at: string;
  status_code: number | null;
  error: string | null;
  /** Null: finished (`outcome` delivered, failed or dropped); else retried then. */
  next_attempt_at: string | null;
  outcome: DeliveryRecord['outcome'];
}

export interface NotificationDeliveryStore {
  /** Queues one message for each channel; a (channel, event) pair already queued is left as it is. */
  enqueue(channelIds: readonly number[], message: NotificationMessage, at: string, giveUpAt: string): Promise<void>;
  /**
   * Takes up to `limit` due deliveries, each the oldest unfinished one of its channel (so a
   * channel's messages go in order), leased until `leaseUntil`: a row is taken by one
   * dispatcher, on any replica, until its lease ends.
   */
  claimDue(now: string, leaseUntil: string, limit: number): Promise<DeliveryRecord[]>;
  /**
   * Once its head is claimed, a channel's next `count` unfinished deliveries after `afterId`
   * (due and unleased), leased too, in order: sent one after the other in the same round.
   */
  claimFollowing(channelId: number, afterId: number, now: string, leaseUntil: string, count: number): Promise<DeliveryRecord[]>;
  /** Lets go of leases not used (a delivery before them failed: they wait behind it). */
  release(ids: readonly number[]): Promise<void>;
  /** Writes an attempt's outcome and lets go of the lease. */
  recordAttempt(id: number, attempt: DeliveryAttempt): Promise<void>;
  /** Drops the unfinished deliveries of a channel (disabled): they will not be sent. */
  dropPending(channelId: number, at: string, reason: string): Promise<number>;
  list(channelId: number, query: ListQuery): Promise<ListPage<DeliveryRecord>>;
  /** Deletes at most `limit` finished deliveries queued before `before`; resolves how many. */
  purgeFinished(before: string, limit: number): Promise<number>;
}

/** An event waiting for its channel's digest: the message it would have been alone. */
export interface DigestItem {
  message: NotificationMessage;
  created_at: string;
}

/**
 * The events waiting for the digests of `hourly` and `daily` channels
 * (docs/decisions/173-notification-digests.md).
 */
export interface NotificationDigestStore {
  /** Keeps one message for each channel's next digest. */
  collect(channelIds: readonly number[], message: NotificationMessage, at: string): Promise<void>;
  /** The channels with events waiting, each with its oldest one's time. */
  waiting(): Promise<Array<{ channel_id: number; oldest: string }>>;
  /**
   * Claims the period ending at `until` for the channel: true for the one caller, on any replica,
   * that moves its `digested_until` up to `until` (PostgreSQL: the second waits for the first's
   * row lock, then sees it moved). Call it inside the transaction that takes the items.
   */
  claimPeriod(channelId: number, until: string): Promise<boolean>;
  /** Removes and answers the channel's items queued before `until`, oldest first. */
  take(channelId: number, until: string): Promise<DigestItem[]>;
  /** Forgets everything waiting for the channel (disabled): resolves how many. */
  drop(channelId: number): Promise<number>;
}
