import pg from 'pg';

const int8Oid = 20;

/**
 * pg returns int8 (bigint columns, count(*)) as a string so as not to lose precision. dms
 * keeps counts as JS numbers: exact up to 2^53, and a larger value is refused loudly
 * rather than rounded in silence.
 */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`PostgreSQL returned the integer ${text}, beyond what dms handles exactly (2^53 - 1)`);
  }
  return value;
}

/** Per-pool type parsers: the int8 parser above, pg's defaults for every other type. */
export const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === int8Oid && format !== 'binary' ? parseInt8 : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
