// Public API of @dms/core. Adapters are on their own subpaths (@dms/core/sqlite, …).
export * from './errors/domain-error.js';
export { parseInput, zodIssuesToDetails } from './errors/zod-details.js';
export * from './domain/common.js';
export * from './domain/nas.js';
export * from './domain/pool.js';
export * from './domain/nas-share.js';
export * from './domain/trap.js';
export * from './domain/snmp-config.js';
export * from './domain/user.js';
export * from './domain/api-key.js';
export * from './domain/job.js';
export * from './events/catalogue.js';
export { MemoryEventBus } from './events/memory-event-bus.js';
export type { EventBus } from './ports/event-bus.js';
export type * from './ports/storage.js';
export type * from './ports/job-store.js';
export type * from './ports/notifier.js';
export type * from './ports/snmp-agent.js';
export * from './ports/share-driver.js';
export type * from './list-query/list-query.js';
export { parseListQuery, type RawQuery } from './list-query/parse-list-query.js';
export * from './list-query/list-specs.js';
export type { Principal } from './scopes/principal.js';
export { systemPrincipal } from './scopes/principal.js';
export * from './scopes/scope-check.js';
export { createAesGcmSecretBox, type SecretBox } from './security/secret-box.js';
export { argon2PasswordHasher, type PasswordHasher } from './security/password-hasher.js';
export { generateApiKeyToken, hashApiKeyToken } from './security/api-key-token.js';
export type { CoreDeps } from './services/core-deps.js';
export { createCore, type Core, type CoreOptions } from './services/create-core.js';
export type { ShareScope, ShareCollection } from './services/share-service.js';
export { apiKeyCreateSchema, apiKeyUpdateSchema, apiKeySchema, presentApiKey, type ApiKeyView } from './services/api-key-service.js';
export { presentUser, userCreateSchema, userUpdateSchema } from './services/user-service.js';
export * from './domain/cors-rule.js';
export * from './domain/settings.js';
export { presentTrap } from './services/trap-service.js';
export { JobEngine, type JobEngineOptions } from './jobs/job-engine.js';
export { JobService, presentJob, maxWaitSeconds, type JobQuery } from './services/job-service.js';
export { startTrapDispatcher, receivesEvent, type TrapDispatchTarget, type StopTrapDispatcher } from './events/trap-dispatcher.js';
export type * from './ports/rate-limiter.js';
export { isStorageUnavailable } from './errors/storage-unavailable.js';
export { openDms, NoDatabaseError, type Dms, type OpenDmsOptions } from './runtime/open-dms.js';
export { DataDirInUseError } from './runtime/data-dir-lock.js';
export type { DmsLog } from './runtime/log.js';
export type { SnmpAgentState } from './runtime/snmp-services.js';
export { toDomainError } from './errors/to-domain-error.js';
export { attributeErrorSchema, modelErrorSchema, type ModelError } from './contracts/model-error-schema.js';
export { collectionSchema, type CollectionShape } from './contracts/collection-schema.js';
export { nasCollectionSchema, poolCollectionSchema, corsRuleCollectionSchema } from './contracts/resource-collection-schemas.js';
export { userSchema, userCollectionSchema } from './contracts/user-schemas.js';
export { loginRequestSchema, tokenSchema } from './contracts/auth-schemas.js';
export { apiKeyWithKeySchema, apiKeyCollectionSchema, currentCredentialSchema } from './contracts/api-key-schemas.js';
export {
  listQuerySchema,
  shareListQuerySchemas,
  nasListQuerySchema,
  poolListQuerySchema,
  trapListQuerySchema,
  userListQuerySchema,
  apiKeyListQuerySchema,
  corsRuleListQuerySchema,
} from './contracts/list-query-schemas.js';
export { AccessService, type AccessRequest, type LoginRequest } from './services/access-service.js';
