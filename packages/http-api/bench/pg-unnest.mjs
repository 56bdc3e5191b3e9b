// Many rows into a PostgreSQL table in one statement: `insert … select * from unnest($1::type[],
// …)`, one array a column, each typed as the table declares it (pg_attribute), so thousands of
// rows cost one round trip and one parse. Shared by the benches' PostgreSQL seeds.

/**
 * An insert of `columns` into `table` through `client` (a connected pg.Client): resolves a
 * function that writes an array of rows (each an array of the columns' values) in one statement.
 */
export async function unnestInserter(client, table, columns) {
  const { rows: types } = await client.query(
    'select attname, format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped',
    [table],
  );
  const typeOf = new Map(types.map((row) => [row.attname, row.type]));
  for (const column of columns) if (!typeOf.has(column)) throw new Error(`${table} has no column ${column}`);
  const sql = `insert into ${table} (${columns.join(', ')}) select * from unnest(${columns.map((column, i) => `$${i + 1}::${typeOf.get(column)}[]`).join(', ')})`;
  return async (rows) => {
    if (rows.length === 0) return;
    await client.query(
      sql,
      columns.map((_, c) => rows.map((row) => row[c])),
    );
  };
}
