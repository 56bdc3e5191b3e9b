// The public API of @dms/core: what hosts (REST server, CLI, desktop app, SDK generator) use,
// listed by name. Adapters are on their own subpaths (@dms/core/sqlite, /memory, /drivers,
// /snmp); test fixtures on @dms/core/testing.

// Every operator-facing default (environment, settings, limits), and the byte formatter
export {
  serverDefaults,
  httpDefaults,
  postgresDefaults,
  rateLimitDefaults,
  jobDefaults,
  authDefaults,
  hasherDefaults,
  snmpDefaults,
  listDefaults,
  environmentDefaults,
} from './defaults.js';
export { formatBytes } from './format-bytes.js';

// Opening and running the service
export { openDms, NoDatabaseError, type Dms, type OpenDmsOptions } from './runtime/open-dms.js';
export { DataDirInUseError } from './runtime/data-dir-lock.js';
export type { DmsLog } from './runtime/log.js';
export type { SnmpAgentState } from './runtime/snmp-services.js';
export { createCore, type Core, type CoreOptions } from './services/create-core.js';
export type { AccessService, AccessRequest, CredentialRequest, LoginRequest } from './services/access-service.js';
export {
  passwordCredential,
  bearerCredential,
  credentialBounds,
  type Credential,
  type PasswordCredential,
  type BearerCredential,
  type SessionCredential,
  type UnreadableCredential,
} from './security/credential.js';
export type { ShareScope, ShareCollection } from './services/share-service.js';
export type { JobTarget, RecentJob } from './services/job-service.js';

// Errors
export {
  DomainError,
  isDomainError,
  describeDetails,
  type DomainErrorCode,
  type AttributeErrorType,
  type AttributeError,
  type ErrorDetails,
} from './errors/domain-error.js';
export { toDomainError } from './errors/to-domain-error.js';
export { isStorageUnavailable } from './errors/storage-unavailable.js';
export { parseInput, zodIssuesToDetails } from './validation/zod-details.js';

// Resources, one module each (domain/<resource>.ts): input schemas, the answer's schema, its
// collection, its list spec and list query schema, and their types
export { nasTypes, type NasType } from './domain/common.js';
export { nasCreateSchema, nasUpdateSchema, nasSchema, nasCollectionSchema, nasListSpec, nasListQuerySchema, type Nas, type NasCreate, type NasUpdate } from './domain/nas.js';
export { poolTypes, poolContents, poolCreateSchema, poolUpdateSchema, poolSchema, poolCollectionSchema, poolListSpec, poolListQuerySchema, type Pool, type PoolCreate, type PoolUpdate } from './domain/pool.js';
export { nasShareCreateSchema, nasShareUpdateSchema, nasShareSchema, nasShareCollectionSchema, shareListSpecs, shareListQuerySchemas, parseShareOptions, type NasShare, type NasShareCreate, type NasShareUpdate } from './domain/nas-share.js';
export { snmpVersions, severityLevels, trapCreateSchema, trapUpdateSchema, trapSchema, trapCollectionSchema, trapListSpec, trapListQuerySchema, type SnmpVersion, type Severity, type Trap, type TrapCreate, type TrapUpdate } from './domain/trap.js';
export { snmpConfigUpdateSchema, snmpConfigSchema, type SnmpConfig, type SnmpConfigUpdate } from './domain/snmp-config.js';
export { usernameSchema, passwordSchema, userCreateSchema, userUpdateSchema, userSchema, userCollectionSchema, userListSpec, userListQuerySchema, type User } from './domain/user.js';
export { apiKeyCreateSchema, apiKeyUpdateSchema, apiKeySchema, apiKeyWithKeySchema, apiKeyCollectionSchema, currentCredentialSchema, apiKeyListSpec, apiKeyListQuerySchema, type ApiKeyView } from './domain/api-key.js';
export { corsMethods, corsRuleCreateSchema, corsRuleUpdateSchema, corsRuleSchema, corsRuleCollectionSchema, corsRuleListSpec, corsRuleListQuerySchema, compileCorsRules, findCorsRule, type CorsRule, type CorsRuleFinder } from './domain/cors-rule.js';
export { settingsSchema, settingsUpdateSchema, defaultSettings, type Settings } from './domain/settings.js';
export { loginRequestSchema, tokenSchema } from './domain/auth.js';
export { scopeSchema, parseScopeText, formatScope, type Scope } from './scopes/scope.js';
export {
  jobStatuses,
  finishedJobStatuses,
  isJobFinished,
  jobKinds,
  stepOutcomeSchema,
  activeJobStatusSchema,
  type JobStatus,
  type FinishedJobStatus,
  type JobKind,
  type StepOutcome,
  type ActiveJobStatus,
} from './domain/job.js';
export { presentApiKey } from './services/api-key-service.js';
export { presentUser } from './services/user-service.js';
export { presentTrap } from './services/trap-service.js';
export { presentJob, maxWaitSeconds, maxRecentJobs } from './services/job-service.js';

// The shapes every resource shares: the error answer, a collection, a list's query
export { attributeErrorSchema, modelErrorSchema, type ModelError } from './errors/model-error-schema.js';
export { collectionSchema, type CollectionShape } from './list-query/collection-schema.js';
export { listQuerySchema } from './list-query/list-query-schema.js';
export type { ListSpec, ListQuery, ListPage } from './list-query/list-query.js';
export type { RawQuery } from './list-query/parse-list-query.js';

// Callers and their rights
export { systemPrincipal, type Principal, type UserPrincipal, type ApiKeyPrincipal } from './scopes/principal.js';
export { authorize, authorizeAdmin, isAllowed, canSeeSharePassword, canSeeAgentCommunity } from './scopes/scope-check.js';
export { scopeProblem, type ScopeProblem } from './scopes/scope-validity.js';
export { scopeCatalogue, explicitOnlyActions, type ScopeController, type ScopeAction } from './scopes/scope-catalogue.js';

// Events
export { eventCatalogue, makeEvent, type DmsEvent, type DmsEventName, type DmsEventResource } from './domain/events.js';

// Ports, for hosts that bring their own adapters
export type { EventBus } from './ports/event-bus.js';
export type { RateLimitDecision, RateLimiter, AccessLimits } from './ports/rate-limiter.js';
export type { SecretBox } from './ports/secret-box.js';
export type { PasswordHasher } from './ports/password-hasher.js';
export type { Storage, StorageCapabilities } from './ports/storage.js';
export type { TrapSender, TrapTarget } from './ports/notifier.js';
export type { ShareDriver, ShareDriverRegistry, ShareLocation } from './ports/share-driver.js';
export { MemoryEventBus } from './adapters/memory/memory-event-bus.js';
export { createAesGcmSecretBox } from './adapters/aes-gcm/aes-gcm-secret-box.js';
export { argon2PasswordHasher } from './adapters/argon2/argon2-password-hasher.js';
