import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './kysely-schema.js';
import type { MaybePromise } from '../../ports/maybe-promise.js';

/**
 * Runs one SQL text (compiled by Kysely, `?` or `$1` parameters) and answers its first row.
 * An adapter whose driver runs it faster than Kysely's executor provides one: SQLite's is a
 * prepared statement's `get()`, with no connection mutex and no promise per step;
 * PostgreSQL's a named statement, parsed and planned once per connection.
 */
export type FirstRowReader = (sql: string) => (parameters: readonly unknown[]) => unknown;

/**
 * Runs one SQL text and answers every row as an array of its values in the order selected: for
 * a read of every share (the /metrics gauges), where the driver's object a row was most of the
 * cost. SQLite's is a prepared statement in raw mode, PostgreSQL's a named statement with
 * `rowMode: 'array'`.
 */
export type ArrayRowsReader = (sql: string) => (parameters: readonly unknown[]) => MaybePromise<unknown[][]>;

export interface PreparedReads {
  /**
   * A one-parameter lookup compiled once: hot reads (a share by id, a key by hash) skip
   * Kysely's build-and-compile on every call and run the same SQL text.
   */
  first<Row, Value>(build: (value: Value) => Compilable<Row>): (value: Value) => MaybePromise<Row | undefined>;
}

/**
 * `build` compiled once with a slot per argument; answers the SQL text and how to fill its
 * parameters from the arguments of a call. Every argument must be used.
 */
function compileWithSlots<Row, Args extends readonly unknown[]>(
  build: (...args: Args) => Compilable<Row>,
  arity: number,
): { compiled: CompiledQuery<Row>; parameters: (args: Args) => unknown[] } {
  const slots = Array.from({ length: arity }, (_, i) => Symbol(`parameter slot ${i}`));
  const compiled = build(...(slots as unknown as Args)).compile();
  const argumentAt = compiled.parameters.map((value) => slots.indexOf(value as symbol));
  const unused = slots.findIndex((_, i) => !argumentAt.includes(i));
  if (unused !== -1) throw new Error(`a prepared statement must use each of its arguments (argument ${unused} is not)`);
  return {
    compiled,
    parameters: (args) => compiled.parameters.map((value, position) => (argumentAt[position] === -1 ? value : args[argumentAt[position]!])),
  };
}

/**
 * A statement compiled once and answering its first row, run by `direct` where the adapter
 * has one for it (SQLite's answers at once, a throw for a failure), else by Kysely's
 * executor with the same SQL text.
 */
function firstRowOf<Row, Args extends readonly unknown[]>(
  db: Kysely<Database>,
  build: (...args: Args) => Compilable<Row>,
  arity: Args['length'],
  direct?: FirstRowReader,
): (...args: Args) => MaybePromise<Row | undefined> {
  const { compiled, parameters } = compileWithSlots(build, arity);
  if (direct) {
    const run = direct(compiled.sql);
    return (...args) => run(parameters(args)) as MaybePromise<Row | undefined>;
  }
  return async (...args) => (await db.executeQuery<Row>({ ...compiled, parameters: parameters(args) })).rows[0];
}

/** As a prepared read, always a promise: for the job engine's statements, which write. */
export function preparedFirst<Row, Args extends readonly unknown[]>(
  db: Kysely<Database>,
  build: (...args: Args) => Compilable<Row>,
  arity: Args['length'],
  direct?: FirstRowReader,
): (...args: Args) => Promise<Row | undefined> {
  const run = firstRowOf(db, build, arity, direct);
  return async (...args) => run(...args);
}

/**
 * `build` compiled once with a slot per argument, its rows answered as arrays: by `direct` where
 * the adapter has one, else by Kysely's executor (each row object's values, in the order selected).
 */
export function preparedArrayRows<Row extends readonly unknown[], Args extends readonly unknown[]>(
  db: Kysely<Database>,
  build: (...args: Args) => Compilable<unknown>,
  arity: Args['length'],
  direct?: ArrayRowsReader,
): (...args: Args) => Promise<Row[]> {
  const { compiled, parameters } = compileWithSlots(build, arity);
  if (direct) {
    const run = direct(compiled.sql);
    return async (...args) => (await run(parameters(args))) as unknown as Row[];
  }
  return async (...args) =>
    (await db.executeQuery<Record<string, unknown>>({ ...compiled, parameters: parameters(args) })).rows.map((row) => Object.values(row) as unknown as Row);
}

export function preparedReads(db: Kysely<Database>, direct?: FirstRowReader): PreparedReads {
  return {
    first: <Row, Value>(build: (value: Value) => Compilable<Row>) => firstRowOf<Row, [Value]>(db, build, 1, direct),
  };
}
