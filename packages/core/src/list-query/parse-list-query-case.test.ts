import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors/domain-error.js';
import type { RawQuery } from './list-query.js';
import { nasListSpec } from '../domain/nas.js';
import { poolListSpec } from '../domain/pool.js';
import { jobListSpec } from '../domain/job.js';
import { filterOperators, parseListQuery } from './parse-list-query.js';
import { lowerAscii } from './ascii-case.js';

/** Issue 26 item 6 and issue 29 item 7: `~*` / `!~*` and `sort_by=ATTR:ci`. */
const parse = (raw: RawQuery) => parseListQuery(raw, nasListSpec);

function refusal(raw: RawQuery, spec = nasListSpec): string {
  try {
    parseListQuery(raw, spec);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    expect(error.code).toBe('bad_request');
    return error.message;
  }
  throw new Error(`${JSON.stringify(raw)} was accepted`);
}

describe('case-insensitive filters', () => {
  it('reads ~* and !~* before ~ and !~, and keeps ~ and !~ as they were', () => {
    expect(parse({ name: ['~*proj%'], host: ['!~*%.LAN'], comment: ['~Proj%'], type: ['!~smb%'] }).filters).toEqual([
      { field: 'name', op: 'ilike', values: ['proj%'] },
      { field: 'host', op: 'not_ilike', values: ['%.LAN'] },
      { field: 'comment', op: 'like', values: ['Proj%'] },
      { field: 'type', op: 'not_like', values: ['smb%'] },
    ]);
    // A second star is the pattern's own character.
    expect(parse({ name: ['~**'] }).filters).toEqual([{ field: 'name', op: 'ilike', values: ['*'] }]);
  });

  it('lists every operator, pattern operators last', () => {
    expect(filterOperators).toEqual(['=', '!=', '>', '>=', '<', '<=', '><', '!><', '~', '!~', '~*', '!~*']);
  });

  it('refuses a pattern operator on a numeric attribute, naming the operators that attribute takes', () => {
    expect(refusal({ id: ['~*1%'] })).toBe('id is numeric: ~ !~ ~* !~* apply to text attributes; id takes = != > >= < <= >< !><');
    expect(refusal({ id: ['!~*1%'] })).toBe('id is numeric: ~ !~ ~* !~* apply to text attributes; id takes = != > >= < <= >< !><');
  });

  it('names the operators when a numeric value starts like a misspelt one', () => {
    expect(refusal({ id: ['*5'] })).toBe(
      "id filter value '*5' must be an integer between -2147483648 and 2147483647, after one of the operators = != > >= < <= >< !><",
    );
    expect(refusal({ id: ['=>5'] })).toMatch(/after one of the operators = != > >= < <= >< !><$/);
    // A value that is no operator at all keeps the plain message.
    expect(refusal({ id: ['five'] })).toBe("id filter value 'five' must be an integer between -2147483648 and 2147483647");
  });

  it('takes ~* on a field of known values without checking the pattern against them', () => {
    expect(parseListQuery({ status: ['~*COMPLETED'] }, jobListSpec).filters).toEqual([{ field: 'status', op: 'ilike', values: ['COMPLETED'] }]);
  });
});

describe('case-insensitive order', () => {
  it('takes :ci after the attribute or its direction', () => {
    expect(parse({ sort_by: ['name:ci|host:desc:ci|type:asc:ci|comment:desc'] }).sort).toEqual([
      { field: 'name', direction: 'asc', nullable: false, caseInsensitive: true },
      { field: 'host', direction: 'desc', nullable: false, caseInsensitive: true },
      { field: 'type', direction: 'asc', nullable: false, caseInsensitive: true },
      { field: 'comment', direction: 'desc', nullable: true },
    ]);
    // Without :ci, byte-wise as before: the REST contract of sort_by is unchanged.
    expect(parse({ sort_by: ['name'] }).sort).toEqual([{ field: 'name', direction: 'asc', nullable: false }]);
  });

  it('refuses :ci on a numeric attribute, and a misplaced or unknown modifier, saying what is accepted', () => {
    expect(refusal({ sort_by: ['primary_id:ci'] }, poolListSpec)).toBe("sort_by 'primary_id:ci': :ci applies to text attributes, and primary_id is not one");
    for (const part of ['name:ci:desc', 'name:CI', 'name:asc:ci:ci', 'name:nocase']) {
      expect(refusal({ sort_by: [part] })).toBe(
        `sort_by '${part}' must be ATTRIBUTE, ATTRIBUTE:asc or ATTRIBUTE:desc, optionally followed by :ci (case-insensitive)`,
      );
    }
  });
});

describe('lowerAscii', () => {
  it('folds A-Z only, as SQLite’s lower() and PostgreSQL’s lower() on COLLATE "C" do', () => {
    expect(lowerAscii('Proj-000 ÉCOLE Straße ǅ İ')).toBe('proj-000 École straße ǅ İ');
    expect(lowerAscii('@[`{')).toBe('@[`{');
  });
});
