import type { Kysely, Selectable } from 'kysely';
import type { UserTotpRecord, UserTotpStore } from '../../ports/storage.js';
import type { Database } from './kysely-schema.js';
import { userTotpColumns as columns, type UserTotpTable } from '../../tables/user-totp.table.js';
import { parseJsonText, toJsonText } from '../../tables/json-text.js';
import { inTransaction } from './kysely-transaction.js';

function toRecord(row: Selectable<UserTotpTable>): UserTotpRecord {
  return {
    ...row,
    enabled: Boolean(row.enabled),
    last_step: row.last_step === null ? null : Number(row.last_step),
    recovery_codes: parseJsonText(row.recovery_codes),
  };
}

/**
 * Every change that must happen once (a code's step, a recovery code) is a conditional update:
 * two replicas accepting the same code at once see one row changed between them, not two.
 */
export class KyselyUserTotpStore implements UserTotpStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => string,
  ) {}

  async get(userId: number) {
    const row = await this.db.selectFrom('user_totp').select(columns).where('user_id', '=', userId).executeTakeFirst();
    return row && toRecord(row);
  }

  async beginEnrollment(userId: number, sealedSecret: string) {
    return await inTransaction(this.db, async (trx) => {
      const current = await trx.selectFrom('user_totp').select('enabled').where('user_id', '=', userId).executeTakeFirst();
      if (current?.enabled) return false;
      await trx.deleteFrom('user_totp').where('user_id', '=', userId).execute();
      const values = { user_id: userId, secret: sealedSecret, enabled: 0, last_step: null, recovery_codes: toJsonText<string[]>([]), created_at: this.now() };
      await trx.insertInto('user_totp').values(values).execute();
      return true;
    });
  }

  async enable(userId: number, step: number, recoveryCodes: string[]) {
    const result = await this.db
      .updateTable('user_totp')
      .set({ enabled: 1, last_step: step, recovery_codes: toJsonText(recoveryCodes) })
      .where('user_id', '=', userId)
      .where('enabled', '=', 0)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async acceptStep(userId: number, step: number) {
    const result = await this.db
      .updateTable('user_totp')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async useRecoveryCode(userId: number, digest: string) {
    // Compare-and-set on the list as read; another code used meanwhile changes the list, so read
    // again (a bounded number of times): the same code used twice at once succeeds once.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const row = await this.db.selectFrom('user_totp').select('recovery_codes').where('user_id', '=', userId).where('enabled', '=', 1).executeTakeFirst();
      const codes = row ? parseJsonText(row.recovery_codes) : [];
      if (!row || !codes.includes(digest)) return false;
      const result = await this.db
        .updateTable('user_totp')
        .set({ recovery_codes: toJsonText(codes.filter((code) => code !== digest)) })
        .where('user_id', '=', userId)
        .where('recovery_codes', '=', row.recovery_codes)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) return true;
    }
    return false;
  }

  async delete(userId: number) {
    const result = await this.db.deleteFrom('user_totp').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
