import { randomUUID } from 'node:crypto';
import type { CoreDeps } from './core-deps.js';
import { MemoryEventBus } from '../adapters/memory/memory-event-bus.js';
import { lazyArgon2PasswordHasher } from '../adapters/argon2/lazy-argon2-password-hasher.js';
import { boundHasher } from '../security/bounded-hasher.js';
import { NasService } from './nas-service.js';
import { PoolService } from './pool-service.js';
import { ShareService } from './share-service.js';
import { TrapService } from './trap-service.js';
import { SnmpConfigService } from './snmp-config-service.js';
import { AuthService } from './auth-service.js';
import { AccessService } from './access-service.js';
import { RoleService } from './role-service.js';
import { UserService } from './user-service.js';
import { TotpService } from './totp-service.js';
import { SessionService } from './session-service.js';
import { ApiKeyService } from './api-key-service.js';
import { JobService } from './job-service.js';
import { SettingsService } from './settings-service.js';
import { CorsRuleService } from './cors-rule-service.js';
import { randomBytes } from 'node:crypto';
import { channelSenders as defaultChannelSenders, newWebhookSecret, refreshAlertmanager } from '../adapters/notify/index.js';
import { JobEngine, type JobEngineOptions } from '../jobs/job-engine.js';
import type { ShareDriverRegistry } from '../ports/share-driver.js';
import type { TrapSender } from '../ports/notifier.js';
import { createHostPolicy, type ResolveHost } from '../security/host-policy.js';
import type { EventBus } from '../ports/event-bus.js';
import type { AccessLimits } from '../ports/rate-limiter.js';
import { createMemoryAccessLimits } from '../adapters/memory/memory-rate-limiter.js';
import { AuditTrail } from './audit-trail.js';
import { retentionPurge } from './retention.js';
import type { AuditEvent } from '../domain/audit-event.js';
import { ScheduleService } from './schedule-service.js';
import { AlertService } from './alert-service.js';
import { AlertWatch } from './alert-watch.js';
import { StatisticsService } from './statistics-service.js';
import { Recurrences } from '../schedules/recurrence.js';
import { SilenceService } from './silence-service.js';
import { Scheduler, type SchedulerOptions } from '../schedules/scheduler.js';
import { NotificationChannelService } from './notification-channel-service.js';
import { NotificationDispatcher, type NotificationDispatcherOptions } from '../notifications/notification-dispatcher.js';
import type { ChannelSenders } from '../ports/channel-sender.js';
import { auditResource as channelResource } from './audit-trail.js';
import { channelFailingSource } from '../notifications/notification-outbox.js';
import { notificationDefaults } from '../defaults.js';
import { OidcService } from './oidc-service.js';
import type { OidcRelyingParty } from '../ports/oidc-relying-party.js';
import { OpenIdClientRelyingParty } from '../adapters/openid-client/openid-client-relying-party.js';
import { MemoryActivityFeed } from '../adapters/memory/memory-activity-feed.js';
import type { ActivityFeed } from '../ports/activity-feed.js';

export interface Core {
  /** Domain events (job progress, configuration changes, traps): what hosts and adapters subscribe to. */
  readonly events: EventBus;
  /** The injected clock, for events a host raises. */
  readonly clock: () => Date;
  /** Resolves when the storage answers; rejects with DomainError('unavailable') when it does not (readiness). */
  ping(): Promise<void>;
  readonly nas: NasService;
  readonly pools: PoolService;
  readonly shares: ShareService;
  readonly traps: TrapService;
  readonly snmpConfig: SnmpConfigService;
  readonly auth: AuthService;
  /** Authentication with its rate limits and lockouts: what every host calls per request. */
  readonly access: AccessService;
  readonly users: UserService;
  /** A user's TOTP second factor (docs/decisions/178-totp-second-factor.md). */
  readonly totp: TotpService;
  /** Signed-in sessions (docs/decisions/179-sessions.md). */
  readonly sessions: SessionService;
  readonly roles: RoleService;
  readonly apiKeys: ApiKeyService;
  readonly jobs: JobService;
  readonly settings: SettingsService;
  readonly corsRules: CorsRuleService;
  /** The audit log: every change recorded with its transaction, and GET /audit_events. */
  readonly auditEvents: AuditTrail;
  readonly schedules: ScheduleService;
  readonly alerts: AlertService;
  readonly statistics: StatisticsService;
  readonly notificationChannels: NotificationChannelService;
  /** Sign-in through an OpenID provider (issue 46). */
  readonly oidc: OidcService;
  readonly silences: SilenceService;
  /** What this process's job engine, notification dispatcher and scheduler do, as it happens (what `/metrics` counts). */
  readonly activity: Pick<ActivityFeed, 'subscribe'>;
}

/**
 * A core and the job engine under it. The engine is not part of `Core`: hosts queue, read and
 * watch jobs through `core.jobs`; only what runs the service (openDms, which starts and stops the
 * workers and hands the engine on as `Dms.engine` for the shutdown) and tests hold it.
 */
export interface WiredCore {
  core: Core;
  /** Not running until `engine.start()`: a process may serve the API without workers. */
  engine: JobEngine;
  /** Not running until `scheduler.start()`: runs due schedules (a service starts it with the engine). */
  scheduler: Scheduler;
  /** The RRULE workers (the scheduler's and the API's); `close()` ends both. */
  recurrences: Pick<Recurrences, 'close'>;
  /** The alert sources; not watching until `alertWatch.start()` (a service starts it with the engine). */
  alertWatch: AlertWatch;
  /** Sends queued notifications; not running until `notifications.start()` (a service starts it with the engine). */
  notifications: NotificationDispatcher;
}

export type CoreOptions = Pick<CoreDeps, 'storage' | 'secrets'> &
  Partial<CoreDeps> & {
    drivers: ShareDriverRegistry;
    /** Sends test traps (POST /snmp/traps/{id}/test); the dispatcher uses its own. */
    trapSender?: TrapSender;
    onTrapSendError?: (error: unknown) => void;
    /** Host name resolution of the share-test host policy (the system resolver by default). */
    resolveHost?: ResolveHost;
    /** HS256 key of JWT mode, derived from the server secret (random per process if absent). */
    jwtKey?: Uint8Array;
    /** Rate limits and the failed-authentication lockout (in memory, with rateLimitDefaults, by default). */
    limits?: AccessLimits;
    scheduler?: Partial<Pick<SchedulerOptions, 'pollMs' | 'onError'>>;
    /** Each audit event once committed (openDms logs it as one `audit: true` line). */
    onAudit?: (event: AuditEvent) => void;
    engine?: Partial<Pick<JobEngineOptions, 'concurrency' | 'driverTimeoutMs' | 'heartbeatMs' | 'staleAfterMs' | 'pollMs' | 'onError'>>;
    /** The channels' senders (adapters/notify), loaded when first needed by default. */
    channelSenders?: ChannelSenders;
    notifications?: Partial<Pick<NotificationDispatcherOptions, 'pollMs' | 'leaseMs' | 'sendTimeoutMs' | 'random' | 'onError' | 'refreshMs'>>;
    /** The OpenID Connect client (`openid-client` by default). */
    oidcRelyingParty?: OidcRelyingParty;
  };

/** Wires the services over one storage; the HTTP server, the CLI and the desktop app share it. */
export function createCore(options: CoreOptions): Core {
  return wireCore(options).core;
}

/** `createCore`, with the job engine its job service drives (not started). */
export function wireCore(options: CoreOptions): WiredCore {
  const {
    drivers,
    engine: engineOptions,
    scheduler: schedulerOptions,
    trapSender,
    onTrapSendError,
    jwtKey,
    resolveHost,
    limits,
    onAudit,
    channelSenders,
    notifications: notificationOptions,
    oidcRelyingParty,
    ...given
  } = options;
  const deps: CoreDeps = {
    hasher: boundHasher(lazyArgon2PasswordHasher),
    events: new MemoryEventBus(),
    clock: () => new Date(),
    newId: randomUUID,
    ...given,
  };
  const audit = new AuditTrail(deps, onAudit);
  // A subscriber that throws is the host's bug: told where the engine's errors go, never to the teller.
  const activity = new MemoryActivityFeed((error) => engineOptions?.onError?.(error));
  const settings = new SettingsService(deps, audit);
  // Read where it is used (a NAS saved, a job's driver connecting): every replica obeys a change at once.
  const hostPolicy = async () => createHostPolicy((await settings.current()).share_test_allowed_hosts, resolveHost);
  const nas = new NasService(deps, audit, hostPolicy);
  const pools = new PoolService(deps, audit);
  const shares = new ShareService(deps, audit, nas, pools, drivers);
  // The dispatcher is made below, over the alerts it raises: a queued notification wakes it then.
  const alerts = new AlertService(deps, audit, () => dispatcher.wake());
  const senders = channelSenders ?? defaultChannelSenders;
  const dispatcher = new NotificationDispatcher({
    storage: deps.storage,
    clock: deps.clock,
    senders,
    refreshAlertmanager,
    activity,
    ...notificationOptions,
    // A channel failing 3 times in a row raises notification_channel_failing; its next success clears it.
    onOutcome: async (channel, result, failuresBefore) => {
      // A trap target's own alert is trap_target_unreachable, raised by its informs (docs/decisions/174-snmp-traps-as-a-channel.md).
      if (channel.type === 'snmp_trap') return;
      const resource = channelResource('notification_channels', channel.id, channel.name);
      if (result.ok) {
        if (failuresBefore > 0) await alerts.clear(channelFailingSource, resource);
      } else if (failuresBefore + 1 >= notificationDefaults.failingAfter) {
        await alerts.sight(
          channelFailingSource,
          resource,
          `notification channel ${channel.name} failed ${failuresBefore + 1} deliveries in a row: ${result.error ?? 'failed'}`,
        );
      }
    },
  });
  // One worker per purpose: a caller's slow rule never holds the scheduler's evaluations (docs/decisions/108-…).
  const scheduleRecurrences = new Recurrences();
  const ruleChecks = new Recurrences();
  const recurrences = { close: () => Promise.all([scheduleRecurrences.close(), ruleChecks.close()]).then(() => undefined) };
  const silences = new SilenceService(deps, audit, alerts, ruleChecks, scheduleRecurrences);
  const alertWatch = new AlertWatch(deps, alerts, settings, engineOptions?.onError, () => silences.review());
  const engine = new JobEngine({
    ...deps,
    drivers,
    hostPolicy,
    purgeExpired: retentionPurge(deps, settings, audit),
    onQueueFull: (total) => alertWatch.queueRefused(total),
    activity,
    ...engineOptions,
  });
  // Both change how a user signs in: what any replica remembers of credentials is dropped.
  const accessLimits = limits ?? createMemoryAccessLimits();
  const totp = new TotpService(deps, audit, () => auth.credentialsChanged(), accessLimits.authFailures);
  const sessions = new SessionService(deps, audit, () => auth.credentialsChanged());
  const auth = new AuthService(deps, settings, jwtKey ?? randomBytes(32), totp, sessions);
  const oidc = new OidcService(deps, settings, audit, oidcRelyingParty ?? new OpenIdClientRelyingParty());
  const jobs = new JobService(deps, engine, drivers, nas, shares, settings, audit, resolveHost);
  const scheduler = new Scheduler({
    storage: deps.storage,
    recurrences: scheduleRecurrences,
    clock: deps.clock,
    audit,
    startJob: (action, share, scheduleId, alsoStore) => jobs.startScheduled(action, share, scheduleId, alsoStore),
    onRun: (schedule, missed, why) => alertWatch.scheduleRan(schedule, missed, why),
    onStopped: (schedule, reason) => alertWatch.scheduleStopped(schedule, reason),
    onRunEnded: (schedule, run) => alertWatch.scheduleRunEnded(schedule, run),
    activity,
    ...schedulerOptions,
  });
  const roles = new RoleService(deps, audit, () => auth.credentialsChanged());
  const core: Core = {
    events: deps.events,
    clock: deps.clock,
    activity,
    ping: () => deps.storage.ping(),
    nas,
    pools,
    shares,
    jobs,
    schedules: new ScheduleService(deps, audit, ruleChecks, settings, (enabled) => {
      if (enabled) alertWatch.scheduleEnabled(enabled);
      scheduler.wake();
    }),
    traps: new TrapService(deps, audit, trapSender, onTrapSendError ?? (() => {}), hostPolicy),
    snmpConfig: new SnmpConfigService(deps, audit),
    auth,
    access: new AccessService(deps, auth, accessLimits, audit),
    settings,
    corsRules: new CorsRuleService(deps, audit),
    auditEvents: audit,
    alerts,
    statistics: new StatisticsService(deps),
    notificationChannels: new NotificationChannelService(deps, audit, senders, () => newWebhookSecret()),
    silences,
    users: new UserService(deps, audit, () => auth.credentialsChanged(), roles),
    roles,
    totp,
    sessions,
    apiKeys: new ApiKeyService(deps, audit, () => auth.credentialsChanged(), settings, roles),
    oidc,
  };
  return { core, engine, scheduler, recurrences, alertWatch, notifications: dispatcher };
}
