import type { AuditAction, AuditVia } from '@dms/core';

// Keyed by the core's unions: an action or a host added there fails the renderer's typecheck
// until it has its words here. The filters' choices are these tables' keys (optionsOf), not the
// core's lists: those live beside zod schemas, which the renderer bundle must not take in.

export const auditActionLabels: Record<AuditAction, string> = {
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  // The event records the request: the job it starts may still fail, and the log shows its outcome beside.
  test: 'Started a test',
  scan: 'Started a scan',
  login: 'Signed in',
  login_failed: 'Sign-in failed',
  key_created: 'Key created',
  key_updated: 'Key updated',
  key_revoked: 'Key revoked',
  settings_changed: 'Settings changed',
  totp_enabled: 'Two-factor turned on',
  totp_disabled: 'Two-factor turned off',
  recovery_code_used: 'Recovery code used',
  session_revoked: 'Session revoked',
};

export const auditViaLabels: Record<AuditVia, string> = { rest: 'REST API', cli: 'CLI', console: 'Console', scheduler: 'Scheduler' };

/**
 * The resources events name, by their path name (docs/decisions/084-audit-trail.md). A plain record, not keyed by a
 * core union (the core has none): a type it adds later shows as its path name until it is listed.
 */
export const resourceTypeLabels: Record<string, string> = {
  nas: 'NAS',
  nas_shares: 'Share',
  pools: 'Pool',
  traps: 'Trap target',
  server_configuration: 'SNMP server',
  users: 'User',
  api_keys: 'API key',
  cors_rules: 'Cross-origin rule',
  settings: 'Settings',
  schedules: 'Schedule',
  alerts: 'Alert',
  alert_settings: 'Alert setting',
  silences: 'Silence',
  sessions: 'Session',
};

export function resourceTypeLabel(type: string): string {
  return resourceTypeLabels[type] ?? type;
}

/** What an event did, in words: a trap target's test sends a trap at once, a share's starts a job. */
export function auditActionText(event: { action: AuditAction; resource: { type: string } | null }): string {
  if (event.action === 'test' && event.resource?.type === 'traps') return 'Sent a test trap';
  return auditActionLabels[event.action];
}
