import type { CoreDeps } from './core-deps.js';
import type { SettingsService } from './settings-service.js';
import { purgeInBatches, type AuditTrail } from './audit-trail.js';

const dayMs = 24 * 3600_000;

/**
 * The housekeeping purge (each minute, by the job engine): finished jobs past
 * `job_retention_days`, audit events past `audit_retention_days`, as the settings are now. In
 * batches: no one delete holds the write lock long, whatever piled up while dms was down.
 */
export function retentionPurge(deps: Pick<CoreDeps, 'storage' | 'clock'>, settings: SettingsService, audit: AuditTrail): () => Promise<void> {
  return async () => {
    const { job_retention_days: jobDays, audit_retention_days: auditDays } = await settings.current();
    const now = deps.clock().getTime();
    const before = (days: number) => new Date(now - days * dayMs).toISOString();
    await purgeInBatches((limit) => deps.storage.jobs.purgeFinished(before(jobDays), limit));
    await audit.purgeBefore(before(auditDays));
  };
}
