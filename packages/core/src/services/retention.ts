import type { CoreDeps } from './core-deps.js';
import type { SettingsService } from './settings-service.js';
import { purgeInBatches, type AuditTrail } from './audit-trail.js';

const dayMs = 24 * 3600_000;

/**
 * The housekeeping purge (each minute, by the job engine): finished jobs, audit events, scan
 * and capacity history, cleared alerts and finished notification deliveries past their `*_retention_days` (failed sign-ins past their own), as the settings are now. In
 * batches: no one delete holds the write lock long, whatever piled up while dms was down.
 */
export function retentionPurge(deps: Pick<CoreDeps, 'storage' | 'clock'>, settings: SettingsService, audit: AuditTrail): () => Promise<void> {
  return async () => {
    const current = await settings.current();
    const now = deps.clock().getTime();
    const before = (days: number) => new Date(now - days * dayMs).toISOString();
    await purgeInBatches((limit) => deps.storage.jobs.purgeFinished(before(current.job_retention_days), limit));
    await audit.purgeBefore(before(current.audit_retention_days));
    await audit.purgeFailedSignInsBefore(before(current.failed_sign_in_retention_days));
    await purgeInBatches((limit) => deps.storage.shares.purgeScans(before(current.scan_retention_days), limit));
    await purgeInBatches((limit) => deps.storage.shares.purgeCapacitySamples(before(current.capacity_retention_days), limit));
    await purgeInBatches((limit) => deps.storage.alerts.purgeCleared(before(current.alert_retention_days), limit));
    // Finished notification deliveries are kept as long as cleared alerts, which they mostly tell of.
    await purgeInBatches((limit) => deps.storage.notificationDeliveries.purgeFinished(before(current.alert_retention_days), limit));
    // Sign-ins left at the OpenID provider past their ten minutes.
    await deps.storage.oidc.purgeExpired(new Date(now).toISOString());
  };
}
