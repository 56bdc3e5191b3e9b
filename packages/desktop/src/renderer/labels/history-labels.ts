import type { AuditAction, AuditVia } from '@dms/core';

// Keyed by the core's unions: an action or a host added there fails the renderer's typecheck
// until it has its words here. The filters' choices are these tables' keys (optionsOf), not the
// core's lists: those live beside zod schemas, which the renderer bundle must not take in.

export const auditActionLabels: Record<AuditAction, string> = {
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  test: 'Tested',
  scan: 'Scanned',
  login: 'Signed in',
  login_failed: 'Sign-in failed',
  key_created: 'Key created',
  key_updated: 'Key updated',
  key_revoked: 'Key revoked',
  settings_changed: 'Settings changed',
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
};

export function resourceTypeLabel(type: string): string {
  return resourceTypeLabels[type] ?? type;
}
