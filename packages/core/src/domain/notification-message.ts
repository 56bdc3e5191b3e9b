import type { Severity } from './trap.js';
import type { NotificationEventType } from './notification-channel.js';
import type { DmsEventName, DmsEventResource } from './events.js';

/** What an alert message says of its alert (as GET /alerts/{id} shows it, less the operator's dismissal). */
export interface AlertMessageData {
  alert: {
    id: number;
    source: string;
    level: Severity;
    resource: { type: string; id: string | null; name: string | null } | null;
    message: string;
    raised_at: string;
    cleared_at: string | null;
    /** An `alert.updated`'s level before the change (an Alertmanager's alert is keyed by it). */
    previous_level?: Severity;
  };
}

/** What a job outcome message says: the share it ran on and how it ended. */
export interface JobMessageData {
  /** `schedule_id`: the schedule whose run started it, null for a test or scan someone asked for. */
  job: { kind: 'share_test' | 'share_scan'; status: 'completed' | 'failed'; message: string; schedule_id: number | null };
  resource: { type: string; id: string | null; name: string | null } | null;
}

/** One event a digest lists: the message it would have been alone, less its title's prefix. */
export interface DigestEntry {
  id: string;
  type: Exclude<NotificationEventType, 'digest' | 'test'>;
  timestamp: string;
  level: Severity;
  source: string;
  title: string;
  text: string;
  data: AlertMessageData | JobMessageData;
}

/** What a digest says: its period, how many of each kind, and the events themselves, oldest first. */
export interface DigestMessageData {
  digest: {
    period: 'hourly' | 'daily' | 'immediately';
    /** ISO 8601 UTC: the period's start (earlier when an event queued late is listed too). */
    from: string;
    /** ISO 8601 UTC: the period's end. */
    to: string;
    raised: number;
    cleared: number;
    /** Every event listed, and those left out past the digest's bound (docs/decisions/173-notification-digests.md). */
    count: number;
    omitted: number;
    events: DigestEntry[];
  };
}

/** An event as a trap target's queue keeps it (a DmsEvent, its time as ISO 8601): the trap is made from it when sent. */
export interface TrapMessageData {
  event: {
    name: DmsEventName;
    severity: Severity;
    message: string;
    resource?: DmsEventResource;
    alert?: { id: number; source: string; level: Severity };
    at: string;
  };
}

/** A message's type: the API's event types, and `trap` on a trap target's queue only (docs/decisions/174-snmp-traps-as-a-channel.md). */
export type MessageType = NotificationEventType | 'trap';

/**
 * One event as every channel renders it, stored with each of its deliveries: a webhook sends
 * it as its body (Standard Webhooks' `type`, `timestamp`, `data`, with the event's `id`); the
 * chat, ntfy and e-mail formats are made from `title`, `text` and `level`.
 */
export interface NotificationMessage {
  /** The event's id: the same on every channel (a webhook's `webhook-id`). */
  id: string;
  type: MessageType;
  /** ISO 8601 UTC: when the event happened. */
  timestamp: string;
  /** 1 info … 5 critical: a channel's `min_level` filters by it. */
  level: Severity;
  /** The alert source or job outcome a channel's `sources` filters by (`test` for a test message). */
  source: string;
  /** One line for a subject, a chat title, an ntfy title. */
  title: string;
  /** A sentence or two for the body. */
  text: string;
  data: AlertMessageData | JobMessageData | DigestMessageData | TrapMessageData | { test: true };
}

export const levelNames: Record<Severity, string> = { 1: 'info', 2: 'notice', 3: 'warning', 4: 'error', 5: 'critical' };
