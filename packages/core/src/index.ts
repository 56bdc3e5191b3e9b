// @dms/core: the pure contract every host shares, the desktop renderer included. Nothing here
// loads a Node built-in or a heavy adapter (entry-purity.test.ts keeps it so): the running
// service is on @dms/core/runtime, adapters on their own subpaths (/sqlite, /postgres, /memory,
// /drivers, /snmp), test fixtures on /testing. A name is listed here because a host uses it;
// everything else stays inside the core.

// Operator-facing defaults a host reads (environment, listening, lists), and the byte and count formatters
export { serverDefaults, httpDefaults, listDefaults, environmentDefaults } from './defaults.js';
export { formatBytes } from './format-bytes.js';
export { formatCount } from './format-count.js';

// Errors: the domain error, its reading from anything thrown, and input validation
export { DomainError, isDomainError, type DomainErrorCode, type ErrorDetails } from './errors/domain-error.js';
export { toDomainError } from './errors/to-domain-error.js';
export { isStorageUnavailable } from './errors/storage-unavailable.js';
export { parseInput } from './validation/zod-details.js';

// Answers a port gives at once where it can; the REST pipeline chains them without a promise
export { whenReady, type MaybePromise } from './ports/maybe-promise.js';

// Resources, one module each (domain/<resource>.ts): input schemas, the answer's schema, its
// collection and list query schema, and their types
export { type NasType } from './domain/common.js';
export { nasCreateSchema, nasUpdateSchema, nasSchema, nasCollectionSchema, nasListQuerySchema, type Nas } from './domain/nas.js';
export { poolCreateSchema, poolUpdateSchema, poolSchema, poolCollectionSchema, poolListQuerySchema, type Pool } from './domain/pool.js';
export {
  nasShareCreateSchema,
  nasShareUpdateSchema,
  nasShareSchema,
  nasShareCollectionSchema,
  shareListQuerySchemas,
  type NasShare,
} from './domain/nas-share.js';
export {
  severityLevels,
  trapCreateSchema,
  trapUpdateSchema,
  trapSchema,
  trapCollectionSchema,
  trapListQuerySchema,
  trapVersions,
  notifyTypes,
  type SnmpVersion,
  type TrapVersion,
  type NotifyType,
  type Severity,
  type Trap,
} from './domain/trap.js';
export {
  snmpConfigUpdateSchema,
  snmpConfigSchema,
  defaultSnmpConfig,
  agentAddressSchema,
  agentPortSchema,
  type SnmpConfig,
  type SnmpConfigView,
} from './domain/snmp-config.js';
export * from './domain/snmp-v3-security.js';
export { userCreateSchema, userUpdateSchema, userSchema, userCollectionSchema, userListQuerySchema, type User } from './domain/user.js';
export {
  apiKeyCreateSchema,
  apiKeyUpdateSchema,
  apiKeySchema,
  apiKeyWithKeySchema,
  apiKeyCollectionSchema,
  currentCredentialSchema,
  apiKeyListQuerySchema,
  type ApiKeyView,
} from './domain/api-key.js';
export {
  corsMethods,
  corsRuleCreateSchema,
  corsRuleUpdateSchema,
  corsRuleSchema,
  corsRuleCollectionSchema,
  corsRuleListQuerySchema,
  compileCorsRules,
  type CorsRule,
  type CorsRuleFinder,
} from './domain/cors-rule.js';
export { settingsSchema, settingsUpdateSchema } from './domain/settings.js';
export { parseOidcCallback } from './domain/oidc-callback.js';
export { loginRequestSchema, tokenSchema } from './domain/auth.js';
export {
  totpConfirmRequestSchema,
  totpDisableRequestSchema,
  totpEnrollmentSchema,
  totpRecoveryCodesSchema,
  totpStatusSchema,
  type TotpEnrollment,
  type TotpStatus,
  type SecondFactor,
} from './domain/totp.js';
export { sessionSchema, sessionCollectionSchema, sessionListSpec, sessionListQuerySchema, type Session } from './domain/session.js';
export { TotpService } from './services/totp-service.js';
export { SessionService, type SessionClient } from './services/session-service.js';

// Jobs: statuses, kinds and when a job is finished
export {
  isJobFinished,
  activeJobStatusSchema,
  jobKinds,
  jobSchema,
  jobCollectionSchema,
  jobListQuerySchema,
  schedulerRequester,
  type JobStatus,
  type JobKind,
  type ActiveJobStatus,
  type Job,
} from './domain/job.js';
export { jobStatuses, finishedJobStatuses, unfinishedJobStatuses } from './domain/job-status.js';

// The audit log: who changed what, from where
export {
  auditActions,
  auditVias,
  auditActorKinds,
  auditOutcomes,
  secretChange,
  auditEventSchema,
  auditEventCollectionSchema,
  auditEventListQuerySchema,
  type AuditAction,
  type AuditVia,
  type AuditEvent,
  type AuditChange,
} from './domain/audit-event.js';

// The events dms raises (each a DMS-MIB notification), with their levels
export { eventCatalogue, type DmsEventName } from './domain/events.js';

// Keeping watch: schedules, alerts, scans and capacity
export {
  scheduleActions,
  scheduleCreateSchema,
  scheduleUpdateSchema,
  scheduleSchema,
  scheduleCollectionSchema,
  scheduleListQuerySchema,
  type Schedule,
  type ScheduleAction,
} from './domain/schedule.js';
export {
  alertSourceCatalogue,
  alertSources,
  alertSchema,
  alertCollectionSchema,
  alertUpdateSchema,
  alertListQuerySchema,
  alertSettingSchema,
  alertSettingCollectionSchema,
  alertSettingUpdateSchema,
  type Alert,
  type AlertSource,
  type AlertSetting,
} from './domain/alert.js';
export {
  shareScanSchema,
  shareScanCollectionSchema,
  shareScanListQuerySchema,
  capacityQuerySchema,
  capacitySchema,
  shareScanDetailSchema,
  scanComparisonSchema,
  scanCompareQuerySchema,
  type ShareScan,
  type ShareScanDetail,
  type ScanComparison,
  type Capacity,
} from './domain/statistics.js';
export { reportQuerySchema, statisticsReportSchema, reportGrowersPerShare, type StatisticsReport, type ReportShare } from './domain/statistics-report.js';
export { shareHealths, type ShareHealth } from './domain/nas-share.js';
export {
  scanAnalyticsSchema,
  ageBuckets,
  sizeBuckets,
  type ScanAnalytics,
  type TopDirectory,
  type TopGrower,
  type AgeBucket,
  type SizeBucket,
} from './domain/scan-analytics.js';
// A scan's analytics computed as a walk reports it (drivers feed it; the bench measures it)
export { ScanAnalyticsBuilder } from './scans/scan-analytics-builder.js';
export {
  channelTypes,
  channelDigests,
  notificationSources,
  notificationEventTypes,
  channelSettingsSchemas,
  channelCreateSchema,
  channelUpdateSchema,
  channelSchema,
  channelCreatedSchema,
  channelCollectionSchema,
  channelListSpec,
  channelTestResultSchema,
  deliverySchema,
  deliveryCollectionSchema,
  deliveryListSpec,
  type Channel,
  type ChannelType,
  type Delivery,
  type ChannelTestResult,
  type JobEventSource,
} from './domain/notification-channel.js';
export {
  silenceSchema,
  silenceCollectionSchema,
  silenceCreateSchema,
  silenceUpdateSchema,
  silenceListSpec,
  silenceMatcherFields,
  minWindowSeconds,
  maxWindowSeconds,
  type Silence,
  type SilenceMatchers,
  type SilenceCreate,
  type SilenceUpdate,
} from './domain/silence.js';

// The shapes every resource shares: the error answer, a list's raw query
export { modelErrorSchema, type ModelError } from './errors/model-error-schema.js';
export type { RawQuery } from './list-query/parse-list-query.js';
// What each list sorts and filters on, and its bounds: the API description is built from the same specs the lists parse with
export type { ListSpec, ListField } from './list-query/list-query.js';
export { listQuerySchema } from './list-query/list-query-schema.js';
export { decimalAmountExample } from './validation/decimal-amount.js';
export { maxPage } from './list-query/parse-pagination.js';
export { patternBounds } from './list-query/parse-list-query.js';
export { nasListSpec } from './domain/nas.js';
export { poolListSpec } from './domain/pool.js';
export { shareListSpecs } from './domain/nas-share.js';
export { trapListSpec } from './domain/trap.js';
export { userListSpec } from './domain/user.js';
export { apiKeyListSpec } from './domain/api-key.js';
export { corsRuleListSpec } from './domain/cors-rule.js';
export { jobListSpec } from './domain/job.js';
export { auditEventListSpec } from './domain/audit-event.js';
export { scheduleListSpec } from './domain/schedule.js';
export { alertListSpec } from './domain/alert.js';
export { shareScanListSpec } from './domain/statistics.js';

// Callers and their rights
export { parseScopeText, formatScope, type Scope } from './scopes/scope.js';
export { systemPrincipal, calledFrom, type Principal, type CallOrigin } from './scopes/principal.js';
export { authorizeAdmin, isAllowed, canSeeSharePassword, canSeeAgentCommunity, canSeeTrapPassphrases } from './scopes/scope-check.js';
export { scopeProblem } from './scopes/scope-validity.js';
export { scopeCatalogue, explicitOnlyActions, readActions, type ScopeController, type ScopeAction } from './scopes/scope-catalogue.js';
export { builtInRoles, builtInRoleNames, builtInRole, type BuiltInRole, type BuiltInRoleName } from './scopes/built-in-roles.js';
export { roleCreateSchema, roleUpdateSchema, roleSchema, roleCollectionSchema, maxCustomRoles, type RoleView } from './domain/role.js';

// Events, as the event stream carries them
export type { DmsEvent } from './domain/events.js';
export type { ShareGaugeRow, ShareCapacitySample } from './ports/storage.js';
export { shareGaugeField } from './ports/storage.js';
