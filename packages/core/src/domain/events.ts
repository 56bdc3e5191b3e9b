import type { Severity } from './trap.js';

/**
 * Every event dms raises, with its severity (1 info … 5 critical) and the number of its
 * notification under the enterprise arc of DMS-MIB (dmsNotifications.N).
 */
export const eventCatalogue = {
  share_test_completed: { severity: 1, notification: 1, description: 'a share test job completed' },
  share_test_failed: { severity: 4, notification: 2, description: 'a share test job failed' },
  share_scan_completed: { severity: 1, notification: 3, description: 'a share scan completed' },
  share_scan_failed: { severity: 4, notification: 4, description: 'a share scan failed' },
  job_interrupted: { severity: 3, notification: 5, description: 'a job was interrupted by a restart' },
  auth_failures_repeated: { severity: 3, notification: 6, description: 'repeated authentication failures' },
  service_started: { severity: 2, notification: 7, description: 'the service started' },
  service_stopping: { severity: 2, notification: 8, description: 'the service is stopping' },
  configuration_changed: { severity: 1, notification: 9, description: 'the configuration changed' },
  test_trap: { severity: 1, notification: 10, description: 'a test trap requested through the API' },
  // An alert's own level replaces the severity here (alertEvent): a target's band filters by it.
  alert_raised: { severity: 3, notification: 11, description: 'an alert was raised: its condition started' },
  alert_cleared: { severity: 3, notification: 12, description: 'an alert was cleared: its condition ended' },
} as const satisfies Record<string, { severity: Severity; notification: number; description: string }>;

export type DmsEventName = keyof typeof eventCatalogue;

/**
 * Internal events: signals between replicas, never a trap and never shown to a user. Kept
 * apart from eventCatalogue because every entry there is a DMS-MIB notification.
 */
export const internalEventCatalogue = {
  credentials_changed: { severity: 1, description: 'a password, user or API key changed: forget remembered credentials' },
  job_changed: { severity: 1, description: 'a job changed state or progress: wake its long-polls' },
} as const satisfies Record<string, { severity: Severity; description: string }>;

export type InternalEventName = keyof typeof internalEventCatalogue;

/** Absent means local: only a shared bus marks what another replica published. */
export type EventOrigin = 'local' | 'remote';

export interface DmsEventResource {
  type: string;
  id?: number | string;
  name?: string;
}

export interface DmsEvent {
  name: DmsEventName;
  severity: Severity;
  message: string;
  resource?: DmsEventResource;
  /** The alert an alert_raised or alert_cleared event is about (its trap names the source). */
  alert?: { id: number; source: string; level: Severity };
  /** The job a job outcome event is about: whether a schedule started it decides who is told (docs/decisions/172-alert-damping.md). */
  job?: { id: string; schedule_id: number | null };
  at: Date;
  origin?: EventOrigin;
}

export interface InternalEvent {
  name: InternalEventName;
  severity: Severity;
  message: string;
  resource?: DmsEventResource;
  at: Date;
  origin?: EventOrigin;
}

export function makeEvent(name: DmsEventName, message: string, at: Date, resource?: DmsEventResource): DmsEvent {
  const event: DmsEvent = { name, severity: eventCatalogue[name].severity, message, at };
  if (resource) event.resource = resource;
  return event;
}

export function makeInternalEvent(name: InternalEventName, message: string, at: Date, resource?: DmsEventResource): InternalEvent {
  const event: InternalEvent = { name, severity: internalEventCatalogue[name].severity, message, at };
  if (resource) event.resource = resource;
  return event;
}

/** An alert's raise or clear, at the alert's level (its source's setting), not the catalogue's. */
export function alertEvent(
  name: 'alert_raised' | 'alert_cleared',
  alert: { id: number; source: string; level: Severity },
  message: string,
  at: Date,
  resource?: DmsEventResource,
): DmsEvent {
  return { name, severity: alert.level, message, at, alert, ...(resource ? { resource } : {}) };
}
