import type { z } from 'zod';
import type { AlertSource, Channel, ChannelType, channelSettingsSchemas, Delivery, JobEventSource } from '@dms/core';
import { alertSourceLabels } from './watch-labels.js';

// Keyed by the core's unions (types only: the renderer bundle takes no value from a module that
// builds zod schemas): a type, digest, outcome or source added there fails the renderer's
// typecheck until it has its words here. The forms offer these tables' keys.

export const channelTypeLabels: Record<ChannelType, string> = {
  webhook: 'Webhook',
  email: 'E-mail',
  ntfy: 'ntfy',
  slack: 'Slack',
  discord: 'Discord',
  teams: 'Microsoft Teams',
  syslog: 'Syslog',
  alertmanager: 'Alertmanager',
};

export const channelDigestLabels: Record<Channel['digest'], string> = { immediately: 'Immediately', hourly: 'Hourly digest', daily: 'Daily digest' };

export const deliveryOutcomeLabels: Record<Delivery['outcome'], string> = {
  pending: 'Pending',
  retrying: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
  dropped: 'Dropped',
};

export const notificationEventLabels: Record<Delivery['event_type'], string> = {
  'alert.raised': 'Alert raised',
  'alert.updated': 'Alert changed',
  'alert.cleared': 'Alert cleared',
  'job.completed': 'Job completed',
  'job.failed': 'Job failed',
  digest: 'Digest',
  test: 'Test',
};

/** The job outcomes a channel may take beside the alert sources. */
export const jobOutcomeLabels: Record<JobEventSource, string> = {
  share_test_completed: 'Share test completed',
  share_test_failed: 'Share test failed',
  share_scan_completed: 'Share scan completed',
  share_scan_failed: 'Share scan failed',
};

/** What a channel's `sources` may name: the alert sources, then the job outcomes (docs/api.md#notification-channels). */
const notificationSourceLabels: Record<AlertSource | JobEventSource, string> = { ...alertSourceLabels, ...jobOutcomeLabels };

/** A source the console does not know yet (a newer service) shows as its own name. */
export function notificationSourceLabel(source: string): string {
  return notificationSourceLabels[source as AlertSource | JobEventSource] ?? source.replaceAll('_', ' ');
}

/** A type's settings as the core reads them: the fixed choices below are held to them. */
type Settings<T extends ChannelType> = z.output<(typeof channelSettingsSchemas)[T]>;

export const emailSecurityLabels: Record<Settings<'email'>['security'], string> = {
  starttls: 'STARTTLS (usually port 587)',
  tls: 'TLS from the start (usually port 465)',
};

export const syslogTransportLabels: Record<Settings<'syslog'>['transport'], string> = {
  udp: 'UDP (not acknowledged)',
  tcp: 'TCP (octet-counted)',
  tls: 'TLS',
};

export const syslogFacilityLabels: Record<Settings<'syslog'>['facility'], string> = {
  daemon: 'daemon',
  local0: 'local0',
  local1: 'local1',
  local2: 'local2',
  local3: 'local3',
  local4: 'local4',
  local5: 'local5',
  local6: 'local6',
  local7: 'local7',
};
