import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './kysely-schema.js';

/**
 * Runs one read-only SQL text (compiled by Kysely, `?` or `$1` parameters) and answers its
 * first row. An adapter whose driver reads faster than Kysely's executor provides one:
 * SQLite's is a prepared statement's `get()`, with no connection mutex and no promise per step.
 */
export type FirstRowReader = (sql: string) => (parameters: readonly unknown[]) => unknown;

export interface PreparedReads {
  /**
   * A one-parameter lookup compiled once: hot reads (a share by id, a key by hash) skip
   * Kysely's build-and-compile on every call and run the same SQL text.
   */
  first<Row, Value>(build: (value: Value) => Compilable<Row>): (value: Value) => Promise<Row | undefined>;
}

const slot = Symbol('parameter slot');

export function preparedReads(db: Kysely<Database>, direct?: FirstRowReader): PreparedReads {
  return {
    first<Row, Value>(build: (value: Value) => Compilable<Row>): (value: Value) => Promise<Row | undefined> {
      const compiled: CompiledQuery<Row> = build(slot as unknown as Value).compile();
      const index = compiled.parameters.indexOf(slot);
      if (index === -1 || compiled.parameters.lastIndexOf(slot) !== index) throw new Error('a prepared read needs exactly one parameter slot');
      const withValue = (value: Value) => {
        const parameters = [...compiled.parameters];
        parameters[index] = value;
        return parameters;
      };
      if (direct) {
        const read = direct(compiled.sql);
        return async (value: Value) => read(withValue(value)) as Row | undefined;
      }
      return async (value: Value) => (await db.executeQuery<Row>({ ...compiled, parameters: withValue(value) })).rows[0];
    },
  };
}
