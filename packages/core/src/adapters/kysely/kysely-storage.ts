import { sql, type Kysely } from 'kysely';
import { defaultStorageCapabilities, type Storage, type StorageCapabilities, type Stores } from '../../ports/storage.js';
import { inTransaction } from './kysely-transaction.js';
import { DomainError } from '../../errors/domain-error.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { secretColumn } from './kysely-secret-column.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { KyselyNasStore } from './kysely-nas-store.js';
import { KyselyPoolStore } from './kysely-pool-store.js';
import { KyselyNasShareStore } from './kysely-nas-share-store.js';
import { KyselyTrapStore } from './kysely-trap-store.js';
import { KyselySnmpConfigStore } from './kysely-snmp-config-store.js';
import { KyselyUserTotpStore } from './kysely-user-totp-store.js';
import { KyselySessionStore } from './kysely-session-store.js';
import { KyselyRoleStore } from './kysely-role-store.js';
import { KyselyUserStore } from './kysely-user-store.js';
import { KyselyApiKeyStore } from './kysely-api-key-store.js';
import { KyselySettingsStore } from './kysely-settings-store.js';
import { KyselyJobStore } from './kysely-job-store.js';
import { KyselyCorsRuleStore } from './kysely-cors-rule-store.js';
import { KyselyAuditEventStore } from './kysely-audit-event-store.js';
import { KyselyScheduleStore } from './kysely-schedule-store.js';
import { KyselyAlertStore } from './kysely-alert-store.js';
import { KyselyAlertPendingStore } from './kysely-alert-pending-store.js';
import { KyselyNotificationChannelStore } from './kysely-notification-channel-store.js';
import { KyselyNotificationDeliveryStore } from './kysely-notification-delivery-store.js';
import { KyselyOidcStore } from './kysely-oidc-store.js';
import { KyselySilenceStore } from './kysely-silence-store.js';
import { KyselyNotificationDigestStore } from './kysely-notification-digest-store.js';
import type { ListCache } from './kysely-list-cache.js';
import { preparedReads, type ArrayRowsReader, type FirstRowReader } from './kysely-prepared.js';

export interface KyselyStorageOptions {
  db: Kysely<Database>;
  quirks: DialectQuirks;
  /** What this adapter can do beyond the safe defaults. */
  capabilities?: Partial<StorageCapabilities>;
  migrate(db: Kysely<Database>): Promise<void>;
  now?: () => string;
  /** Share list counts and page anchors remembered until the data changes (adapters that can tell). */
  listCache?: ListCache;
  /** A faster path than Kysely's executor for hot one-row reads, where the driver has one. */
  firstRowReader?: FirstRowReader;
  /**
   * The same for the hot single-statement write (the job claim), where running it outside
   * Kysely's executor is safe: PostgreSQL's named statement on a pool connection. Not SQLite's
   * direct path: on its one connection a write could land inside another call's transaction.
   */
  writeStatementRunner?: FirstRowReader;
  /** A faster path than Kysely's executor for reads of many rows, answered as arrays, where the driver has one. */
  arrayRowsReader?: ArrayRowsReader;
  /**
   * Seals the SNMP communities (trap targets, agent) at rest. The runtime always passes
   * one; without it (tests, in-memory databases) communities are stored as given.
   */
  secrets?: SecretBox;
  /**
   * Runs once legacy clear communities were sealed in place: the dialect's chance to drop
   * copies of the clear text the rewrite left behind (SQLite: old pages, its -wal).
   */
  afterLegacySecretsSealed?: () => Promise<void>;
}

/** Each store built when first used: a transaction builds only the stores its work touches. */
function lazyStores(make: { [K in keyof Stores]: () => Stores[K] }): Stores {
  const built: { -readonly [K in keyof Stores]?: Stores[K] } = {};
  const stores = {} as Stores;
  for (const key of Object.keys(make) as Array<keyof Stores>) {
    Object.defineProperty(stores, key, { enumerable: true, get: () => (built[key] ??= make[key]() as never) });
  }
  return stores;
}

/** The shared SQL implementation of the storage port; adapters bring the dialect. */
export function createKyselyStorage(options: KyselyStorageOptions): Storage {
  const { db, quirks } = options;
  const now = options.now ?? (() => new Date().toISOString());
  const communities = secretColumn(options.secrets);
  const storesOver = (over: Kysely<Database>, fast: Pick<KyselyStorageOptions, 'firstRowReader' | 'writeStatementRunner' | 'arrayRowsReader'>): Stores =>
    lazyStores({
      nas: () => new KyselyNasStore(over, quirks, now),
      pools: () => new KyselyPoolStore(over, quirks, now),
      shares: () => new KyselyNasShareStore(over, quirks, now, preparedReads(over, fast.firstRowReader), options.listCache, fast.arrayRowsReader),
      traps: () => new KyselyTrapStore(over, now, communities, quirks),
      snmpConfig: () => new KyselySnmpConfigStore(over, quirks, now, communities),
      users: () => new KyselyUserStore(over, quirks, now),
      userTotp: () => new KyselyUserTotpStore(over, now),
      sessions: () => new KyselySessionStore(over, preparedReads(over, fast.firstRowReader), quirks),
      roles: () => new KyselyRoleStore(over, quirks, now),
      apiKeys: () => new KyselyApiKeyStore(over, preparedReads(over, fast.firstRowReader), quirks),
      settings: () => new KyselySettingsStore(over, quirks),
      corsRules: () => new KyselyCorsRuleStore(over, now, quirks),
      jobs: () => new KyselyJobStore(over, quirks, fast.writeStatementRunner),
      auditEvents: () => new KyselyAuditEventStore(over, quirks),
      schedules: () => new KyselyScheduleStore(over, quirks, now),
      alerts: () => new KyselyAlertStore(over, quirks),
      alertPending: () => new KyselyAlertPendingStore(over),
      notificationChannels: () => new KyselyNotificationChannelStore(over, quirks, now, communities),
      notificationDeliveries: () => new KyselyNotificationDeliveryStore(over, quirks),
      oidc: () => new KyselyOidcStore(over),
      silences: () => new KyselySilenceStore(over, quirks, now),
      notificationDigests: () => new KyselyNotificationDigestStore(over),
    });
  const stores = { ...storesOver(db, options) };
  const traps = stores.traps as KyselyTrapStore;
  const snmpConfig = stores.snmpConfig as KyselySnmpConfigStore;
  return {
    capabilities: { ...defaultStorageCapabilities, ...options.capabilities },
    ...stores,
    // The fast paths run beside Kysely's connection: inside a transaction they would read
    // (PostgreSQL: on another connection) what the transaction has not committed, or not see it.
    transaction: (work) => inTransaction(db, (trx) => work(storesOver(trx, {}))),
    async migrate() {
      await options.migrate(db);
      // The schema is current and the key known: communities stored in clear by earlier
      // versions are sealed now, so nothing stays in clear past the first start.
      if (!options.secrets) return;
      const sealed = (await traps.sealLegacyCommunities()) + (await snmpConfig.sealLegacyCommunity());
      if (sealed > 0) await options.afterLegacySecretsSealed?.();
    },
    async ping() {
      try {
        await sql`select 1`.execute(db);
      } catch (error) {
        throw new DomainError('unavailable', 'storage is unavailable', { retryAfter: 5, cause: error });
      }
    },
    close: () => db.destroy(),
  };
}
