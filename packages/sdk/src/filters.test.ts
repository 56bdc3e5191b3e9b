import { describe, expect, it } from 'vitest';
import { eq, filterQuery, gt, gte, iLike, inList, isNull, like, lt, lte, ne, notILike, notInList, notLike } from './filters.js';

describe('filter helpers write the query text of docs/api.md#lists', () => {
  it.each([
    [eq('projects'), 'projects'],
    [eq(7), '7'],
    [eq(true), 'true'],
    [eq(null), 'null'],
    // A value that starts like an operator keeps its meaning behind an explicit `=`.
    [eq('!=x'), '=!=x'],
    [eq('~tmp'), '=~tmp'],
    [ne('bob'), '!=bob'],
    [ne(null), '!=null'],
    [gt(10), '>10'],
    [gte(10), '>=10'],
    [lt('2030-01-01'), '<2030-01-01'],
    [lte(3), '<=3'],
    [inList([1, 2]), '><1|2'],
    [notInList(['a', 'b']), '!><a|b'],
    [like('proj%'), '~proj%'],
    [notLike('tmp/%'), '!~tmp/%'],
    [iLike('proj%'), '~*proj%'],
    [notILike('%TMP%'), '!~*%TMP%'],
    [iLike('*x'), '~**x'],
    [eq('~*x'), '=~*x'],
    [isNull(), 'null'],
    [isNull(false), '!=null'],
  ])('%s', (expression, text) => {
    expect(expression.text).toBe(text);
    expect(String(expression)).toBe(text);
  });

  it('turns a filter into query values: plain values are equality, a list is one term each', () => {
    expect(filterQuery({ name: like('proj%'), id: [gt(1), lt(9)], pool_id: null, username: '>x', skipped: undefined })).toEqual({
      name: ['~proj%'],
      id: ['>1', '<9'],
      pool_id: ['null'],
      username: ['=>x'],
    });
    expect(filterQuery(undefined)).toEqual({});
  });

  it('refuses a case-sensitive pattern that starts with *, which the API would read as ~* (case-insensitive)', () => {
    expect(() => like('*.tmp')).toThrow(/a ~ pattern cannot start with '\*'.*use iLike/);
    expect(() => notLike('*x')).toThrow(/a !~ pattern cannot start with '\*'/);
    expect(like('_.tmp').text).toBe('~_.tmp');
  });
});
