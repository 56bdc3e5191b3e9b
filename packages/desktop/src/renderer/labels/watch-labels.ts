import type { AlertSource, ScheduleAction, ShareHealth } from '@dms/core';

// Keyed by the core's unions (types only: the renderer takes no value from a module that builds
// zod schemas): a source, an action or a health added there fails the renderer's typecheck until
// it has its words here. Filters offer these tables' keys (optionsOf).

export const alertSourceLabels: Record<AlertSource, string> = {
  share_unreachable: 'Share unreachable',
  scan_failed: 'Scan failed',
  schedule_missed: 'Schedule missed',
  schedule_stopped: 'Schedule stopped',
  schedule_run_incomplete: 'Schedule run incomplete',
  api_key_expiring: 'API key expiring',
  storage_degraded: 'Storage degraded',
  job_queue_saturated: 'Job queue saturated',
  trap_target_unreachable: 'Trap target unreachable',
  notification_channel_failing: 'Notification channel failing',
  share_nearly_full: 'Share nearly full',
  share_full_soon: 'Share full soon',
};

/** A source the console does not know yet (a newer service) shows as its own name. */
export function alertSourceLabel(source: string): string {
  return alertSourceLabels[source as AlertSource] ?? source.replaceAll('_', ' ');
}

export const scheduleActionLabels: Record<ScheduleAction, string> = { test: 'Test', scan: 'Scan' };

export const shareHealthLabels: Record<ShareHealth, string> = { ok: 'OK', unreachable: 'Unreachable', unknown: 'Unknown' };

/** What each health means, where a count or a cell needs it said. */
export const shareHealthHints: Record<ShareHealth, string> = {
  ok: 'passed its latest test',
  unreachable: 'failed its latest test',
  unknown: 'not tested yet',
};
