declare const holds: unique symbol;

/**
 * A JSON column, typed by what it holds. Text on both adapters (SQLite has no JSON type; the
 * PostgreSQL twins chose text so both read back the same string), so a read is a string to
 * parse, not the value Kysely's `JSONColumnType` would promise. Written only through
 * `toJsonText`, read through `parseJsonText`: the value's type travels with the column.
 */
export type JsonText<T> = string & { readonly [holds]: T };

export const toJsonText = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>;

export const parseJsonText = <T>(text: JsonText<T>): T => JSON.parse(text) as T;
