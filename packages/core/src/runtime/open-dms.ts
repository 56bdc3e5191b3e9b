import { existsSync, mkdirSync } from 'node:fs';
import { hkdfSync, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { EventBus } from '../ports/event-bus.js';
import type { Storage } from '../ports/storage.js';
import type { TrapSender } from '../ports/notifier.js';
import { defaultSnmpConfig, type AgentSeed } from '../domain/snmp-config.js';
import { generateEngineId } from '../domain/snmp-engine-id.js';
import { wireCore, type Core, type CoreOptions } from '../services/create-core.js';
import type { Scheduler } from '../schedules/scheduler.js';
import type { AlertWatch } from '../services/alert-watch.js';
import type { NotificationDispatcher } from '../notifications/notification-dispatcher.js';
import { startJobNotifications } from '../notifications/job-notifications.js';
import type { JobEngine } from '../jobs/job-engine.js';
import { createAesGcmSecretBox } from '../adapters/aes-gcm/aes-gcm-secret-box.js';
import { makeEvent } from '../domain/events.js';
import { describeJobFailure } from '../jobs/job-messages.js';
import { loadSecretKey, preparePrivateDataDir } from './secret-key.js';
import { beginFirstStart, databaseAbsent, finishFirstStart, missingDatabaseEvidence } from './first-start.js';
import type { DataDirLock } from './data-dir-lock.js';
import { startSnmpServices, type SnmpAgentState, type SnmpServices } from './snmp-services.js';
import { silentLog, type DmsLog } from './log.js';
import { replicaCoordination, type RateLimitStore } from './replicas.js';
import { lazyTrapSender } from './lazy-trap-sender.js';
import { createMemoryAccessLimits } from '../adapters/memory/memory-rate-limiter.js';
import { serverDefaults, snmpDefaults } from '../defaults.js';

export interface OpenDmsOptions {
  /** Holds the SQLite database, the secret key file and, by default, the local shares root. */
  dataDir: string;
  /** `postgres://…`: PostgreSQL, shared by replicas (no data-dir lock); unset: SQLite in the data dir. */
  databaseUrl?: string;
  /** PostgreSQL connections per process (postgresDefaults.poolMax). */
  pgPoolMax?: number;
  /** PostgreSQL statement timeout in ms (postgresDefaults.statementTimeoutMs). */
  pgStatementTimeoutMs?: number;
  /** DMS_SECRET_KEY; unset: `secret.key` in the data dir, created 0600. */
  secretKey?: string;
  /**
   * `service` (dms serve, the desktop app): takes the data dir's lock, creates the first admin,
   * fails jobs a crash left working, runs the job workers, traps and the SNMP agent.
   * `command` (short CLI commands beside a running service): none of that.
   */
  role: 'service' | 'command';
  /** `command` only: open a data dir that has no database yet (migrate does; others refuse). */
  createDatabase?: boolean;
  /**
   * Create a new, empty SQLite database even in a data dir that already held one (its secret
   * key or lock file is there, its database is not): `dms migrate --init`. Without it such a
   * start is refused (DatabaseMissingError), so a lost database is never silently replaced.
   */
  initDatabase?: boolean;
  /** Serve a SQLite database that fails PRAGMA quick_check, with a warning (DMS_ALLOW_DAMAGED_DATABASE). */
  allowDamagedDatabase?: boolean;
  /** Password of `admin` when the service first starts; unset: a random one, returned once. */
  adminPassword?: string;
  /**
   * `false`: the service role does not create the first admin; the host calls `createFirstAdmin()`
   * once it serves (dms serve, after its port listens: a start that cannot listen must not create
   * an admin whose only printed password is then lost).
   */
  createFirstAdmin?: boolean;
  localRoots?: string[];
  driverTimeoutMs?: number;
  jobConcurrency?: number;
  snmp?: {
    enterpriseOid?: string;
    /**
     * Where the agent listens at the first start (DMS_SNMP_AGENT_PORT, DMS_HOST); unset: the
     * agent starts off. After that the stored configuration decides (agent_enabled …).
     */
    agent?: { host: string; port: number };
  };
  /**
   * Rate limits per credential and per address: `memory` (this process; the default) or
   * `postgres` (shared by the replicas of one database, DMS_RATE_LIMIT_STORE).
   */
  rateLimits?: RateLimitStore;
  /** Replaces the SNMP trap sender (tests); null: no sender, so test traps answer 503. */
  trapSender?: TrapSender | null;
  /** How often an idle worker looks for jobs queued elsewhere (jobDefaults.pollMs); tests shorten it. */
  jobPollMs?: number;
  /** How often the scheduler looks for schedules changed by another replica (1 s). */
  schedulerPollMs?: number;
  /**
   * How long a scheduled run's lease lasts unrenewed (60 s): on PostgreSQL, how long the rest of
   * a run whose replica died waits before another replica feeds it. Tests shorten it.
   */
  scheduleRunLeaseMs?: number;
  /** The notification dispatcher's timing and jitter (tests shorten and seed them). */
  notifications?: CoreOptions['notifications'];
  /** Replaces the channels' senders (tests). */
  channelSenders?: CoreOptions['channelSenders'];
  /** Each trap that could not be sent (the dispatcher's and test traps'). */
  onTrapSendError?: (error: unknown) => void;
  log?: DmsLog;
  /**
   * Called after each step of the start (fault tests SIGKILL a child process there, to prove a
   * first start restartable from every point); nothing else uses it.
   */
  onStartStep?: (step: StartStep) => void;
  /** Passed to the core as they are (clock, limits, hasher … for tests and hosts). */
  core?: Omit<CoreOptions, 'storage' | 'secrets' | 'drivers' | 'jwtKey' | 'engine' | 'trapSender' | 'onTrapSendError'>;
}

/** The steps of a start, in order, after which `onStartStep` is called. */
export type StartStep = 'first-start-marked' | 'locked' | 'key' | 'database-file' | 'migrated' | 'before-first-admin' | 'first-admin';

export interface Dms {
  core: Core;
  /**
   * The job workers under `core.jobs`: started here for a service; a host's shutdown drains and
   * stops them (`drain`, `stop`, `requeued`), and tests start them. Not part of `Core`.
   */
  engine: JobEngine;
  /** Runs due schedules; started with the engine in the service role. */
  scheduler: Scheduler;
  /** The alert sources; watching in the service role. */
  alertWatch: AlertWatch;
  /** Sends the queued notifications; running in the service role. */
  notifications: NotificationDispatcher;
  events: EventBus;
  dataDir: string;
  /** The first start created `admin`; `generatedPassword` is there, once, when none was given. */
  firstAdmin: { created: boolean; generatedPassword?: string };
  /** Creates `admin` (with `adminPassword`, else a random one) when there is no user at all; what `firstAdmin` says. */
  createFirstAdmin(): Promise<{ created: boolean; generatedPassword?: string }>;
  snmpAgent(): SnmpAgentState;
  /** Stops the workers, traps and agent, closes the storage and releases the lock; idempotent. */
  close(): Promise<void>;
}

/** `command` role without `createDatabase` and no database yet: nothing is created. */
export class NoDatabaseError extends Error {
  override readonly name = 'NoDatabaseError';
  constructor(readonly dataDir: string) {
    super(`no dms database in ${dataDir}; set DMS_DATA_DIR to the data dir of your dms, or run 'dms migrate' to create one`);
  }
}

/**
 * The data dir shows a database lived here (the secret key or the lock file a service made),
 * yet dms.sqlite is gone or empty: deleted, or lost with its disk. Creating a new one would
 * answer every request from an empty database, as if all was well.
 */
export class DatabaseMissingError extends Error {
  override readonly name = 'DatabaseMissingError';
  constructor(
    readonly dataDir: string,
    readonly evidence: string,
  ) {
    const file = join(dataDir, 'dms.sqlite');
    super(
      `the data dir ${dataDir} has held a dms database (${evidence} is there) but ${file} is missing or empty: dms does not start on a new empty database in its place. ` +
        `Restore ${file} from your backup (or from a dms.sqlite.rescued-… copy dms saved beside it when the file went), then start dms again; ` +
        `to start over with an empty database on purpose, run 'dms migrate --init'`,
    );
  }
}

function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

async function openStorage(options: OpenDmsOptions, secrets: ReturnType<typeof createAesGcmSecretBox>, log: DmsLog): Promise<Storage> {
  if (options.databaseUrl !== undefined) {
    if (!isPostgresUrl(options.databaseUrl)) {
      throw new Error(
        `DMS_DATABASE_URL '${options.databaseUrl.replace(/\/\/[^@]*@/, '//***@')}' is not supported: use postgres://… or leave it unset for SQLite`,
      );
    }
    // Loaded here, not at the top: a host on SQLite never loads pg, nor the reverse.
    const { openPostgresStorage } = await import('../adapters/postgres/index.js');
    return openPostgresStorage({
      url: options.databaseUrl,
      secrets,
      ...(options.pgPoolMax === undefined ? {} : { poolMax: options.pgPoolMax }),
      ...(options.pgStatementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.pgStatementTimeoutMs }),
    });
  }
  // Loaded here, not at the top: a host on another storage adapter never loads better-sqlite3.
  const { openSqliteStorage } = await import('../adapters/sqlite/index.js');
  return openSqliteStorage({
    file: join(options.dataDir, 'dms.sqlite'),
    secrets,
    warn: (message) => log.warn({}, message),
    error: (message) => log.error({}, message),
    integrity: options.allowDamagedDatabase ? 'warn' : 'refuse',
    // The service's loop serves every user: no checkpoint inside its commits (decision 187).
    checkpointOffLoop: options.role === 'service',
  });
}

/**
 * Opens and runs the whole service over one data dir: every host (REST server, CLI, desktop
 * app, tests) starts here, so no host repeats a step. The lock comes before anything writes,
 * so a second service on the same data dir changes nothing (its jobs, traps, files).
 */
export async function openDms(options: OpenDmsOptions): Promise<Dms> {
  const log = options.log ?? silentLog;
  const { dataDir, role } = options;
  const service = role === 'service';
  // The SQLite file lives in the data dir; a PostgreSQL database is the operator's to create.
  const sqlite = options.databaseUrl === undefined;
  if (sqlite && !options.initDatabase) {
    const evidence = missingDatabaseEvidence(dataDir);
    if (evidence !== undefined) throw new DatabaseMissingError(dataDir, evidence);
  }
  if (sqlite && !service && !options.createDatabase && !existsSync(join(dataDir, 'dms.sqlite'))) throw new NoDatabaseError(dataDir);
  const step = options.onStartStep ?? (() => {});
  const cleanups: Array<() => Promise<void> | void> = [];
  const unwind = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    // Before the lock and the key, which a lost database also leaves behind (missingDatabaseEvidence).
    const firstStart = sqlite && (service || options.createDatabase === true) && databaseAbsent(dataDir);
    if (firstStart) {
      beginFirstStart(dataDir);
      step('first-start-marked');
    }
    if (service) {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      // One service per SQLite file; replicas on PostgreSQL share the database (and may share the dir).
      if (sqlite) {
        // Loaded here, not at the top: the lock is a SQLite database of its own (better-sqlite3).
        const { lockDataDir } = await import('./data-dir-lock.js');
        const lock: DataDirLock = lockDataDir(dataDir);
        cleanups.push(() => lock.release());
        step('locked');
      }
    }
    preparePrivateDataDir(dataDir, (message) => log.warn({}, message));
    const secretKey = loadSecretKey(options.secretKey, dataDir);
    step('key');
    const secrets = createAesGcmSecretBox(secretKey);
    const storage = await openStorage(options, secrets, log);
    cleanups.push(() => storage.close());
    step('database-file');
    await storage.migrate();
    // A restart after a first start killed before this point found the marker and began again.
    if (sqlite) finishFirstStart(dataDir);
    step('migrated');

    const coordination = options.databaseUrl === undefined ? {} : await replicaCoordination(options.databaseUrl, options.rateLimits, log, cleanups);
    const memoryLimits =
      options.rateLimits?.store === 'memory'
        ? {
            limits: createMemoryAccessLimits({
              ...(options.rateLimits.requestsPerMinute === undefined ? {} : { requestsPerMinute: options.rateLimits.requestsPerMinute }),
            }),
          }
        : {};

    // The heavy adapters are loaded when a data dir is opened, not with @dms/core/runtime:
    // net-snmp at the first trap sent (when no sender is given), the share drivers (and what
    // they spawn) here.
    const trapSender =
      options.trapSender === null
        ? undefined
        : (options.trapSender ??
          lazyTrapSender(
            async () =>
              new (await import('../adapters/snmp/snmp-trap-sender.js')).NetSnmpTrapSender({
                ...(options.snmp?.enterpriseOid ? { enterpriseOid: options.snmp.enterpriseOid } : {}),
                // v3 traps and informs leave from the agent's persisted engine (docs/decisions/052-snmp-v3.md)
                engineId: () => storage.snmpConfig.ensureEngineId(() => generateEngineId(options.snmp?.enterpriseOid ?? snmpDefaults.enterpriseOid)),
              }),
          ));
    const onTrapSendError = options.onTrapSendError ?? (() => {});
    const { createShareDriverRegistry } = await import('../adapters/share-drivers/index.js');
    const { core, engine, scheduler, recurrences, alertWatch, notifications } = wireCore({
      ...memoryLimits,
      ...coordination,
      ...options.core,
      storage,
      secrets,
      // A key of its own for JWTs: a token never helps to open a sealed secret, nor the reverse.
      jwtKey: new Uint8Array(hkdfSync('sha256', secretKey, 'dms', 'dms-jwt-hs256-v1', 32)),
      drivers: createShareDriverRegistry({ localRoots: options.localRoots ?? [join(dataDir, serverDefaults.localSharesDir)] }),
      engine: {
        ...(options.jobConcurrency === undefined ? {} : { concurrency: options.jobConcurrency }),
        ...(options.driverTimeoutMs === undefined ? {} : { driverTimeoutMs: options.driverTimeoutMs }),
        ...(options.jobPollMs === undefined ? {} : { pollMs: options.jobPollMs }),
        onError: (error) => log.error({ err: error }, 'job engine error'),
      },
      scheduler: {
        ...(options.schedulerPollMs === undefined ? {} : { pollMs: options.schedulerPollMs }),
        ...(options.scheduleRunLeaseMs === undefined ? {} : { leaseMs: options.scheduleRunLeaseMs }),
        onError: (error) => log.error({ err: error }, 'scheduler error'),
      },
      notifications: {
        ...options.notifications,
        onError: (error) => log.error({ err: error }, 'notification dispatcher error'),
      },
      ...(trapSender ? { trapSender } : {}),
      ...(options.channelSenders ? { channelSenders: options.channelSenders } : {}),
      // One line per event, for a log shipper to forward: the stored event's fields, no secret among them.
      onAudit: (event) =>
        log.info({ audit: true, ...event }, `audit: ${event.action}${event.resource ? ` ${event.resource.type}` : ''} by ${event.actor.name}`),
      onTrapSendError: (error) => {
        onTrapSendError(error);
        log.warn({ err: error }, 'SNMP test trap not sent');
      },
    });
    cleanups.push(() => recurrences.close());
    // In every role: a run a command fed (a tick) lets go of its stored run before storage closes.
    cleanups.push(() => scheduler.stop());
    const { events } = core;
    // Every failed job at warn with its id, so the answer a user got can be found in the log.
    engine.setFailureHandler((failure) =>
      log.warn({ job_id: failure.jobId, kind: failure.kind, nas_id: failure.nasId, share_id: failure.shareId }, describeJobFailure(failure)),
    );

    let firstAdmin: Dms['firstAdmin'] = { created: false };
    let snmp: SnmpServices | undefined;
    if (service) {
      if (!trapSender) throw new Error('a service needs an SNMP trap sender');
      if (options.createFirstAdmin !== false) {
        step('before-first-admin');
        firstAdmin = await core.users.ensureAdmin(options.adminPassword);
        step('first-admin');
      }
      for (const root of options.localRoots ?? [join(dataDir, serverDefaults.localSharesDir)]) mkdirSync(root, { recursive: true });
      snmp = await startSnmpServices({
        storage,
        events,
        sender: trapSender,
        notifications,
        clock: core.clock,
        newId: options.core?.newId ?? randomUUID,
        allowedHosts: () => core.traps.allowedHosts(),
        enterpriseOid: options.snmp?.enterpriseOid ?? snmpDefaults.enterpriseOid,
        agentSeed: agentSeedOf(options.snmp?.agent),
        log,
        onSendError: onTrapSendError,
        onInformOutcome: (target, unacknowledged) => alertWatch.informOutcome(target, unacknowledged),
      });
      cleanups.push(() => snmp!.stop());
      // An exclusive owner (SQLite behind the lock) knows every job left working was cut off;
      // replicas sharing a database fail only those whose heartbeat stopped.
      await engine.start({ recoverEveryWorking: storage.capabilities.exclusiveOwner });
      cleanups.push(() => engine.stop());
      log.info({ worker_id: engine.workerId }, 'job engine started');
      scheduler.start();
      cleanups.push(() => scheduler.stop());
      alertWatch.start();
      cleanups.push(() => alertWatch.stop());
      // Notifications: job outcomes queued as they are announced, every queued one sent (docs/decisions/168-notification-deliveries.md).
      const stopJobNotifications = startJobNotifications({
        bus: events,
        storage,
        clock: core.clock,
        newId: options.core?.newId ?? randomUUID,
        queued: () => notifications.wake(),
        onError: (error) => log.error({ err: error }, 'notification not queued'),
      });
      cleanups.push(stopJobNotifications);
      notifications.start();
      cleanups.push(() => notifications.stop());
      events.publish(makeEvent('service_started', 'dms started', core.clock(), { type: 'service' }));
    }

    let closing: Promise<void> | undefined;
    return {
      core,
      engine,
      scheduler,
      alertWatch,
      notifications,
      events,
      dataDir,
      get firstAdmin() {
        return firstAdmin;
      },
      createFirstAdmin: async () => (firstAdmin = await core.users.ensureAdmin(options.adminPassword)),
      snmpAgent: () => snmp?.agent() ?? { state: 'off' },
      close: () =>
        (closing ??= (async () => {
          // Announced first, so its trap still goes out before the dispatcher stops: queued, then a
          // last round sends it (an inform left waiting is given up; it stays queued for the next start).
          if (service) {
            events.publish(makeEvent('service_stopping', 'dms stopping', core.clock(), { type: 'service' }));
            await snmp?.settle();
            snmp?.abandonInforms();
            await notifications.runOnce().catch((error: unknown) => log.error({ err: error }, 'notifications not sent at stop'));
            await notifications.runOnce().catch((error: unknown) => log.error({ err: error }, 'notifications not sent at stop'));
          }
          await unwind();
        })()),
    };
  } catch (error) {
    await unwind();
    throw error;
  }
}

/** What the first start stores as the agent's settings: on at the given place, or off at the defaults. */
function agentSeedOf(agent: { host: string; port: number } | undefined): AgentSeed {
  if (!agent) return { agent_enabled: false, agent_address: defaultSnmpConfig.agent_address, agent_port: defaultSnmpConfig.agent_port };
  return { agent_enabled: true, agent_address: agent.host.replace(/^\[(.*)\]$/, '$1'), agent_port: agent.port };
}
