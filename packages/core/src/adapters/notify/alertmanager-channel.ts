import type { ChannelSend, SendResult } from '../../ports/channel-sender.js';
import type { NotificationChannelRecord } from '../../ports/notification-store.js';
import { levelNames, type NotificationMessage } from '../../domain/notification-message.js';
import type { Severity } from '../../domain/trap.js';
import { postTo } from './post-json.js';

/** How long a test alert stays firing in the Alertmanager before it resolves by itself. */
const testAlertMs = 5 * 60 * 1000;

interface AlertmanagerAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt?: string;
}

/**
 * A message as Alertmanager alerts (its API v2): labels `alertname` and `source` (the alert
 * source), `severity` (the level's name) and `resource` (`type/id`); `startsAt` the raise,
 * `endsAt` the clear. A change of level resolves the alert at the old severity and fires it at
 * the new one (the labels are the alert's identity there). A test alert resolves after 5 minutes.
 */
export function alertmanagerAlerts(message: NotificationMessage): AlertmanagerAlert[] {
  const annotations = { summary: message.title, description: message.text, dms_event_id: message.id };
  if (!('alert' in message.data)) {
    const end = new Date(new Date(message.timestamp).getTime() + testAlertMs).toISOString();
    return [{ labels: { alertname: 'dms_test', source: 'test', severity: levelNames[message.level] }, annotations, startsAt: message.timestamp, endsAt: end }];
  }
  const { alert } = message.data;
  const labels = (level: Severity) => ({
    alertname: alert.source,
    source: alert.source,
    severity: levelNames[level],
    ...(alert.resource ? { resource: `${alert.resource.type}/${alert.resource.id ?? ''}` } : {}),
  });
  const named = alert.resource?.name ? { ...annotations, resource_name: alert.resource.name } : annotations;
  const firing: AlertmanagerAlert = { labels: labels(alert.level), annotations: named, startsAt: alert.raised_at };
  if (message.type === 'alert.cleared') return [{ ...firing, endsAt: alert.cleared_at ?? message.timestamp }];
  if (message.type === 'alert.updated' && alert.previous_level !== undefined && alert.previous_level !== alert.level)
    return [{ labels: labels(alert.previous_level), annotations: named, startsAt: alert.raised_at, endsAt: message.timestamp }, firing];
  return [firing];
}

/** Posts alerts to the channel's Alertmanager (`/api/v2/alerts` below its URL). */
export function postAlerts(channel: NotificationChannelRecord, alerts: AlertmanagerAlert[], timeoutMs: number): Promise<SendResult> {
  const base = String(channel.settings['url']).replace(/\/+$/, '');
  const token = channel.secrets['token'];
  return postTo(
    `${base}/api/v2/alerts`,
    JSON.stringify(alerts),
    { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    timeoutMs,
  );
}

export const sendAlertmanager: ChannelSend = (channel, message, timeoutMs) => postAlerts(channel, alertmanagerAlerts(message), timeoutMs);

/** Open alerts sent again (an Alertmanager resolves an alert it has not heard of for `resolve_timeout`). */
export function refreshAlertmanager(channel: NotificationChannelRecord, messages: readonly NotificationMessage[], timeoutMs: number): Promise<SendResult> {
  return postAlerts(
    channel,
    messages.flatMap((message) => alertmanagerAlerts(message)),
    timeoutMs,
  );
}
