import type { Kysely } from 'kysely';
import type { SharedMigration } from './migration-dialect.js';

/**
 * Migration 0027 (issue 45), written once for both dialects: a test of an unsaved share keeps a
 * keyed digest of who tested what, so the share saved from it can take it as its first test
 * (docs/decisions/153-test-before-save.md). Looked up by NAS and digest.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('test_fingerprint', 'text').execute();
  await db.schema.createIndex('jobs_test_fingerprint').on('jobs').columns(['nas_id', 'test_fingerprint']).execute();
}

export const testFingerprintColumn: SharedMigration = { name: '0027_test_fingerprint', up };
