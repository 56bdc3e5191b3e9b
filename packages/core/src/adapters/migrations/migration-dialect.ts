import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/** Where the two dialects differ in a migration written once with Kysely's schema builder. */
export interface MigrationDialect {
  /** The id column's definition: SQLite's autoincrement, PostgreSQL's identity. */
  identity(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** Timestamps and sortable text: text on SQLite, text that sorts by code point on PostgreSQL. */
  timestamp: 'text' | ReturnType<typeof sql>;
}

export const sqliteMigrationDialect: MigrationDialect = {
  identity: (column) => column.primaryKey().autoIncrement(),
  timestamp: 'text',
};

export const postgresMigrationDialect: MigrationDialect = {
  identity: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
  timestamp: sql`text collate "C"`,
};

/** A migration written once, for both dialects: its name is its key in both lists. */
export interface SharedMigration {
  name: string;
  up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void>;
}
