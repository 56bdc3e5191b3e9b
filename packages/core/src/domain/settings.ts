import { z } from 'zod';
import { strictInput } from '../validation/strict-input.js';
import { oidcSettingsDefaults, oidcSettingsFields, oidcSettingsOutputFields } from './oidc-settings.js';
import { auditDefaults, authDefaults, jobDefaults, watchDefaults } from '../defaults.js';

/** Host names (exact, case-insensitive) or IPv4/IPv6 addresses and CIDR blocks. */
export const allowedHostEntry = z
  .string()
  .min(1)
  .max(255)
  .regex(/^(?:[A-Za-z0-9.-]+|[0-9A-Fa-f:.]+(?:\/\d{1,3})?)$/, { message: 'must be a host name, an IP address or a CIDR block such as 10.0.0.0/8' });

export const settingsSchema = z
  .object({
    jwt_enabled: z.boolean(),
    jwt_ttl_seconds: z.number().int(),
    job_queue_max_per_principal: z.number().int(),
    job_queue_max_total: z.number().int(),
    share_test_allowed_hosts: z.array(z.string()),
    api_keys_max_per_user: z.number().int(),
    job_retention_days: z.number().int(),
    audit_retention_days: z.number().int(),
    failed_sign_in_retention_days: z.number().int(),
    scan_retention_days: z.number().int(),
    alert_retention_days: z.number().int(),
    schedule_min_interval_seconds: z.number().int(),
    capacity_retention_days: z.number().int(),
    ...oidcSettingsOutputFields,
  })
  .meta({ id: 'settings' });
export const settingsUpdateSchema = strictInput(
  z
    .object({
      jwt_enabled: z.boolean(),
      jwt_ttl_seconds: z
        .number()
        .int()
        .min(60)
        .max(30 * 24 * 3600),
      /** Unfinished (queued or working) jobs one user, with all its keys, may have (429 beyond). */
      job_queue_max_per_principal: z.number().int().min(1).max(10_000),
      /** Unfinished jobs of the whole service (503 beyond). */
      job_queue_max_total: z.number().int().min(1).max(100_000),
      /** Where share tests and scans may connect; empty means anywhere. */
      share_test_allowed_hosts: z.array(allowedHostEntry).max(256),
      /** API keys one user's key tree may hold, keys made by its keys included (409 beyond). */
      api_keys_max_per_user: z.number().int().min(1).max(10_000),
      /** Finished jobs older than this many days are purged. */
      job_retention_days: z.number().int().min(1).max(3650),
      /** Audit events older than this many days are purged. */
      audit_retention_days: z.number().int().min(1).max(3650),
      /** Failed sign-ins (login_failed events) older than this many days are purged (sooner than the rest of the log). */
      failed_sign_in_retention_days: z.number().int().min(1).max(3650),
      /** Scan history rows older than this many days are purged (a share's latest scan is kept). */
      scan_retention_days: z.number().int().min(1).max(3650),
      /** Cleared alerts older than this many days are purged. */
      alert_retention_days: z.number().int().min(1).max(3650),
      /** The closest two occurrences of a schedule's rule may be (422 on a rule more frequent). */
      schedule_min_interval_seconds: z.number().int().min(1).max(86_400),
      /** Capacity readings (a share's capacity history) older than this many days are purged (a share's latest is kept). */
      capacity_retention_days: z.number().int().min(1).max(3650),
      ...oidcSettingsFields,
    })
    .partial(),
  { readOnly: ['oidc_client_secret_set'] },
);

export type Settings = z.output<typeof settingsSchema>;
export const defaultSettings: Settings = {
  jwt_enabled: false,
  jwt_ttl_seconds: authDefaults.jwtTtlSeconds,
  job_queue_max_per_principal: jobDefaults.queueMaxPerPrincipal,
  job_queue_max_total: jobDefaults.queueMaxTotal,
  share_test_allowed_hosts: [],
  api_keys_max_per_user: authDefaults.apiKeysMaxPerUser,
  job_retention_days: jobDefaults.retentionDays,
  audit_retention_days: auditDefaults.retentionDays,
  failed_sign_in_retention_days: auditDefaults.failedSignInRetentionDays,
  scan_retention_days: watchDefaults.scanRetentionDays,
  alert_retention_days: watchDefaults.alertRetentionDays,
  schedule_min_interval_seconds: watchDefaults.scheduleMinIntervalSeconds,
  capacity_retention_days: watchDefaults.capacityRetentionDays,
  ...oidcSettingsDefaults,
};
