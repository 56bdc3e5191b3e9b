import type { ChannelType } from '../domain/notification-channel.js';
import type { NotificationChannelRecord } from './notification-store.js';
import type { NotificationMessage } from '../domain/notification-message.js';

/** What one attempt to send a message on a channel ended in. */
export interface SendResult {
  ok: boolean;
  /** The receiver's HTTP status, for HTTP channels. */
  status_code: number | null;
  /** Why it failed, in a line (never a secret); null when it went through. */
  error: string | null;
  /** The receiver said the channel is gone for good (a webhook's 410): the channel is disabled. */
  gone?: boolean;
  /** Refused for good, this message only (a trap to a host the policy excludes): failed, not tried again. */
  final?: boolean;
}

/**
 * Sends one message on one channel of its type, within `timeoutMs` (resolving a failure, never
 * hanging, past it). Resolves every outcome; rejects only on a bug.
 */
export type ChannelSend = (channel: NotificationChannelRecord, message: NotificationMessage, timeoutMs: number) => Promise<SendResult>;

export type ChannelSenders = Record<ChannelType, ChannelSend>;

/** Sends a channel's open alerts again at once (an Alertmanager forgets those it is not told of). */
export type ChannelRefresh = (channel: NotificationChannelRecord, messages: readonly NotificationMessage[], timeoutMs: number) => Promise<SendResult>;
