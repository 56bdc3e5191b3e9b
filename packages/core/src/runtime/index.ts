// @dms/core/runtime: the running service, for hosts that run it (REST server, CLI, desktop main
// process, tests). The pure contract (schemas, errors, scopes, defaults, formatting) is on
// @dms/core; this entry is the only one that reaches Node built-ins and, lazily, the heavy
// adapters (argon2, net-snmp, better-sqlite3, pg, the share drivers are loaded when a role
// first needs them, not when this entry is imported).

// Opening and running the service over a data dir
export { openDms, NoDatabaseError, type Dms, type OpenDmsOptions, type StartStep } from './open-dms.js';
export { DataDirInUseError } from './data-dir-in-use-error.js';
// The key the service seals with, for `dms restore` to check a backup's secrets against.
export { loadSecretKey, SecretKeyFileError } from './secret-key.js';
export type { SnmpAgentState } from './snmp-services.js';

// The services over one storage, for hosts and tests that bring their own adapters; wireCore
// also hands back the job engine, for a host that runs it itself (the bench's engine run).
export { createCore, wireCore, type Core, type WiredCore } from '../services/create-core.js';
// Notifications: the dispatcher (a host or test drives its rounds) and the senders' signing, for receivers' tests
export { NotificationDispatcher, backoffMs } from '../notifications/notification-dispatcher.js';
export type { ChannelSenders, ChannelSend, SendResult } from '../ports/channel-sender.js';
export type { NotificationMessage } from '../domain/notification-message.js';
export type { AccessService, AccessRequest, LoginRequest } from '../services/access-service.js';
// ShareCollection: no host names it, but the desktop's tRPC router types are inferred through it
// and a declaration file can name a type only through an export.
export type { ShareScope, ShareCollection } from '../services/share-service.js';
export { type JobTarget, maxWaitSeconds } from '../services/job-service.js';
export type { OidcService, OidcSignIn } from '../services/oidc-service.js';
export type { OidcRelyingParty } from '../ports/oidc-relying-party.js';

// What a host hands the access service: a credential read at its edge
export { passwordCredential, bearerCredential, type Credential, type SessionCredential } from '../security/credential.js';
// How a client's address is counted (an IPv6 client by its /64), by the host's connection caps as by the core's budgets
export { addressKey, unmappedAddress } from '../security/client-address-key.js';

// Ports a host implements or passes in, and the secret box it seals with
export type { EventBus } from '../ports/event-bus.js';
// What the core tells of its activity (core.activity), and the bounded label values of its outcomes
export {
  notificationAttemptOutcomes,
  scheduleRunOutcomes,
  type Activity,
  type ActivityFeed,
  type NotificationAttemptOutcome,
  type ScheduleRunOutcome,
} from '../ports/activity-feed.js';
export type { RateLimitDecision, AccessLimits } from '../ports/rate-limiter.js';
export type { PasswordHasher } from '../ports/password-hasher.js';
export type { Storage } from '../ports/storage.js';
export { createAesGcmSecretBox } from '../adapters/aes-gcm/aes-gcm-secret-box.js';
