import { sql, type Kysely } from 'kysely';
import type { Storage } from '../../ports/storage.js';
import { DomainError } from '../../errors/domain-error.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { KyselyNasStore } from './kysely-nas-store.js';
import { KyselyPoolStore } from './kysely-pool-store.js';
import { KyselyNasShareStore } from './kysely-nas-share-store.js';
import { KyselyTrapStore } from './kysely-trap-store.js';
import { KyselySnmpConfigStore } from './kysely-snmp-config-store.js';
import { KyselyUserStore } from './kysely-user-store.js';
import { KyselyApiKeyStore } from './kysely-api-key-store.js';
import { KyselySettingsStore } from './kysely-settings-store.js';
import { KyselyJobStore } from './kysely-job-store.js';
import { KyselyCorsRuleStore } from './kysely-cors-rule-store.js';
import type { CountCache } from './kysely-count-cache.js';
import { preparedReads, type FirstRowReader } from './kysely-prepared.js';

export interface KyselyStorageOptions {
  db: Kysely<Database>;
  quirks: DialectQuirks;
  migrate(db: Kysely<Database>): Promise<void>;
  now?: () => string;
  /** Share list counts remembered until the data changes (adapters that can tell). */
  countCache?: CountCache;
  /** A faster path than Kysely's executor for hot one-row reads, where the driver has one. */
  firstRowReader?: FirstRowReader;
}

/** The shared SQL implementation of the storage port; adapters bring the dialect. */
export function createKyselyStorage(options: KyselyStorageOptions): Storage {
  const { db, quirks } = options;
  const now = options.now ?? (() => new Date().toISOString());
  const reads = preparedReads(db, options.firstRowReader);
  return {
    dialect: quirks.name,
    nas: new KyselyNasStore(db, quirks, now),
    pools: new KyselyPoolStore(db, quirks, now),
    shares: new KyselyNasShareStore(db, quirks, now, reads, options.countCache),
    traps: new KyselyTrapStore(db, now),
    snmpConfig: new KyselySnmpConfigStore(db, now),
    users: new KyselyUserStore(db, quirks, now),
    apiKeys: new KyselyApiKeyStore(db, reads),
    settings: new KyselySettingsStore(db),
    corsRules: new KyselyCorsRuleStore(db, now),
    jobs: new KyselyJobStore(db, quirks),
    migrate: () => options.migrate(db),
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
