import { describe, expect, it } from 'vitest';
import { sqliteMigrations } from '../sqlite/sqlite-migrations.js';
import { postgresMigrations } from '../postgres/postgres-migrations.js';
import { sharedMigrations } from './shared-migrations.js';

describe('migrations written once', () => {
  it('issue 41, each table once: a migration written once is in both lists under its own name, after every raw-SQL twin', () => {
    const names = sharedMigrations.map((migration) => migration.name);
    for (const list of [sqliteMigrations, postgresMigrations]) {
      const keys = Object.keys(list);
      expect(keys.slice(-names.length)).toEqual(names);
      // Kysely runs them by name: a shared one sorts after every raw-SQL twin, and in its place.
      expect([...keys].sort()).toEqual(keys);
    }
  });
});
