import { describe, expect, it } from 'vitest';
import { migrationNameOrder } from './migration-name-order.js';
import { sqliteMigrations } from '../sqlite/sqlite-migrations.js';
import { postgresMigrations } from '../postgres/postgres-migrations.js';

describe('migrationNameOrder', () => {
  it('orders names as Array.prototype.sort does, where localeCompare would not', () => {
    const names = ['0002_b', '0002_B', '0002-b', '0010_a', '0001_z'];
    expect([...names].sort(migrationNameOrder)).toEqual([...names].sort());
    expect(['a_b', 'a-c'].sort(migrationNameOrder)).toEqual(['a-c', 'a_b']);
    expect(['a_b', 'a-c'].sort((left, right) => left.localeCompare(right))).toEqual(['a_b', 'a-c']);
    expect(migrationNameOrder('0001_x', '0001_x')).toBe(0);
  });

  it("keeps dms's own migrations in the order they were written", () => {
    for (const migrations of [sqliteMigrations, postgresMigrations]) {
      const names = Object.keys(migrations);
      expect([...names].sort(migrationNameOrder)).toEqual(names);
    }
  });
});
