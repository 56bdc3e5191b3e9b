import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './kysely-schema.js';

const slot = Symbol('parameter slot');

/**
 * A one-parameter query compiled once: hot lookups (a share by id, a key by hash) skip
 * Kysely's build-and-compile on every call and run the same SQL text, which the SQLite
 * adapter has prepared once. Returns the first row.
 */
export function preparedFirst<Row, Value>(db: Kysely<Database>, build: (value: Value) => Compilable<Row>): (value: Value) => Promise<Row | undefined> {
  const compiled: CompiledQuery<Row> = build(slot as unknown as Value).compile();
  const index = compiled.parameters.indexOf(slot);
  if (index === -1 || compiled.parameters.lastIndexOf(slot) !== index) throw new Error('preparedFirst needs exactly one parameter slot');
  return async (value) => {
    const parameters = [...compiled.parameters];
    parameters[index] = value;
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows[0];
  };
}
