/** The timestamps a row keeps of itself, which its record does not carry. */
export type RowTimestamps = 'created_at' | 'updated_at';

/**
 * The columns a store reads, named as an object's keys and checked against the row: a column
 * left out, or one the row does not have, is a type error, so a column added to a table cannot
 * be forgotten by its store. Returned in the order written (the SELECT's order).
 */
export function columnsOf<Row>(columns: { readonly [Column in keyof Row]-?: true }): Array<keyof Row & string> {
  return Object.keys(columns) as Array<keyof Row & string>;
}
