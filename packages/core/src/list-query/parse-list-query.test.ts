import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors/domain-error.js';
import type { ListSpec, RawQuery } from './list-query.js';
import { apiKeyListSpec } from '../domain/api-key.js';
import { corsRuleListSpec } from '../domain/cors-rule.js';
import { nasListSpec } from '../domain/nas.js';
import { poolListSpec } from '../domain/pool.js';
import { shareListSpecs } from '../domain/nas-share.js';
import { trapListSpec } from '../domain/trap.js';
import { userListSpec } from '../domain/user.js';
import { jobListSpec } from '../domain/job.js';
import { maxFilterTerms, parseListQuery, patternBounds } from './parse-list-query.js';
import { maxPage } from './parse-pagination.js';

const specs: Array<[string, ListSpec]> = [
  ['shares', shareListSpecs.all],
  ['shares of a NAS', shareListSpecs.nas],
  ['shares of a pool', shareListSpecs.pool],
  ['NAS', nasListSpec],
  ['pools', poolListSpec],
  ['traps', trapListSpec],
  ['users', userListSpec],
  ['API keys', apiKeyListSpec],
  ['CORS rules', corsRuleListSpec],
];

/** `a=1&a=2&b=3` as the HTTP layer hands it over. */
function query(text: string): RawQuery {
  const raw = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(text)) raw.set(name, [...(raw.get(name) ?? []), value]);
  return Object.fromEntries(raw);
}

function refusal(text: string, spec: ListSpec = nasListSpec): { attribute: string; message: string } {
  try {
    parseListQuery(query(text), spec);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    expect(error.code).toBe('bad_request');
    const [attribute = ''] = Object.keys(error.details);
    return { attribute, message: error.message };
  }
  throw new Error(`?${text} was accepted`);
}

describe('list specs', () => {
  it.each(specs)('%s: filters are sortable attributes, and no secret is either', (_name, spec) => {
    for (const name of spec.filterable) expect(Object.keys(spec.fields)).toContain(name);
    for (const secret of ['password', 'password_enc', 'password_hash', 'key_hash', 'community']) expect(Object.keys(spec.fields)).not.toContain(secret);
  });
});

describe('parseListQuery pagination', () => {
  it.each(specs)('%s: takes limit/offset and page/per_page, 20 items by default', (_name, spec) => {
    expect(parseListQuery(query(''), spec)).toMatchObject({ limit: 20, offset: 0 });
    expect(parseListQuery(query('limit=5&offset=10'), spec)).toMatchObject({ limit: 5, offset: 10 });
    expect(parseListQuery(query('page=3&per_page=5'), spec)).toMatchObject({ limit: 5, offset: 10 });
    expect(parseListQuery(query('offset=7'), spec)).toMatchObject({ limit: 20, offset: 7 });
    expect(parseListQuery(query('page=2'), spec)).toMatchObject({ limit: 20, offset: 20 });
    expect(parseListQuery(query(`page=${maxPage}&per_page=100`), spec).offset).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
  });

  it.each([
    ['limit=5&page=2', 'page', 'use limit/offset or page/per_page, not both'],
    ['offset=5&per_page=2', 'page', 'use limit/offset or page/per_page, not both'],
    ['limit=0', 'limit', 'limit must be between 1 and 100'],
    ['limit=101', 'limit', 'limit must be between 1 and 100'],
    ['limit=99999999999999999999', 'limit', 'limit must be between 1 and 100'],
    ['limit=1.5', 'limit', 'limit must be an integer between 1 and 100'],
    ['limit=1e2', 'limit', 'limit must be an integer between 1 and 100'],
    ['limit=', 'limit', 'limit must be an integer between 1 and 100'],
    ['per_page=101', 'per_page', 'per_page must be between 1 and 100'],
    ['per_page=x', 'per_page', 'per_page must be an integer between 1 and 100'],
    ['page=0', 'page', `page must be between 1 and ${maxPage}`],
    ['page=-1', 'page', `page must be an integer between 1 and ${maxPage}`],
    [`page=${maxPage + 1}`, 'page', `page must be between 1 and ${maxPage}`],
    ['offset=-1', 'offset', 'offset must be an integer of 0 or more'],
    ['offset=0x10', 'offset', 'offset must be an integer of 0 or more'],
    ['offset=99999999999999999999', 'offset', `offset must be an integer between 0 and ${Number.MAX_SAFE_INTEGER}`],
    ['limit=1&limit=2', 'limit', 'limit may be given once'],
  ])('?%s → 400 on %s: %s', (text, attribute, message) => {
    expect(refusal(text)).toEqual({ attribute, message });
  });
});

describe('parseListQuery parameter names', () => {
  it('refuses an unknown parameter, naming every accepted one and the closest', () => {
    expect(refusal('nmae=x')).toEqual({
      attribute: 'nmae',
      message: "unknown query parameter 'nmae'; accepted: limit, offset, page, per_page, sort_by, id, name, host, type, comment, price; did you mean 'name'?",
    });
    expect(refusal('colour=blue').message).toBe(
      "unknown query parameter 'colour'; accepted: limit, offset, page, per_page, sort_by, id, name, host, type, comment, price",
    );
    expect(refusal('limt=5').message).toMatch(/did you mean 'limit'\?$/);
    expect(refusal('perpage=5').message).toMatch(/did you mean 'per_page'\?$/);
    expect(refusal('Host=a').message).toMatch(/did you mean 'host'\?$/);
    expect(refusal('__proto__[id]=1').attribute).toBe('__proto__[id]');
    expect(refusal('constructor=1').attribute).toBe('constructor');
  });

  it('refuses an attribute the list does not filter on, naming the filters', () => {
    expect(refusal('file_count=0', shareListSpecs.all).message).toBe(
      "cannot filter on 'file_count'; filterable: id, name, path, options, username, health, last_tested_at, last_scanned_at, nas_id, pool_id",
    );
    expect(refusal('nas_id=1', shareListSpecs.nas).message).toBe(
      "cannot filter on 'nas_id'; filterable: id, name, path, options, username, health, last_tested_at, last_scanned_at, pool_id",
    );
  });

  it.each([
    ['password=x', shareListSpecs.all],
    ['community=public', trapListSpec],
    ['password_hash=x', userListSpec],
    ['key_hash=x', apiKeyListSpec],
  ])('refuses a secret without listing anything: %s', (text, spec) => {
    const name = text.split('=')[0]!;
    expect(refusal(text, spec)).toEqual({ attribute: name, message: `cannot filter on '${name}'` });
  });

  it(`keeps the caps: ${maxFilterTerms} repeats of a name, ${maxFilterTerms} filter terms`, () => {
    expect(refusal(Array.from({ length: maxFilterTerms + 1 }, () => 'bogus=1').join('&')).message).toBe(
      `bogus may be repeated at most ${maxFilterTerms} times`,
    );
    expect(refusal(Array.from({ length: maxFilterTerms + 1 }, (_, i) => (i % 2 ? 'id=>0' : 'name=a')).join('&')).message).toBe(
      `a list takes at most ${maxFilterTerms} filter terms`,
    );
  });
});

describe('parseListQuery sort_by and filters', () => {
  it('refuses an unknown sort key, naming the sortable ones and the closest', () => {
    expect(refusal('sort_by=bogus', corsRuleListSpec)).toEqual({ attribute: 'sort_by', message: "cannot sort by 'bogus'; sortable: id, path" });
    expect(refusal('sort_by=nmae:desc').message).toBe("cannot sort by 'nmae'; sortable: id, name, host, type, comment, price; did you mean 'name'?");
    expect(refusal('sort_by=community', trapListSpec).message).toMatch(/^cannot sort by 'community'; sortable: snmp_trap_id, /);
  });

  it('maps API names to columns, and takes the operators of docs/api.md#lists', () => {
    expect(parseListQuery(query('snmp_trap_id=><1|2&sort_by=snmp_trap_id:desc'), trapListSpec)).toMatchObject({
      filters: [{ field: 'id', op: 'in', values: [1, 2] }],
      sort: [{ field: 'id', direction: 'desc' }],
    });
    expect(parseListQuery(query('expires_at=null&name=!~ci-%'), apiKeyListSpec).filters).toEqual([
      { field: 'expires_at', op: 'eq', values: [null] },
      { field: 'name', op: 'not_like', values: ['ci-%'] },
    ]);
  });

  it('finding 20.9: range-checks integer filters against their column, naming the bounds', () => {
    expect(refusal('id=>999999999999999').message).toBe("id filter value '999999999999999' must be between -2147483648 and 2147483647");
    expect(refusal('id=><1|2147483648').message).toBe("id filter value '2147483648' must be between -2147483648 and 2147483647");
    expect(refusal('id=1e3').message).toBe("id filter value '1e3' must be an integer between -2147483648 and 2147483647");
    expect(parseListQuery(query('id=><-2147483648|2147483647'), nasListSpec).filters).toEqual([{ field: 'id', op: 'in', values: [-2147483648, 2147483647] }]);
    // bigint columns take what a JavaScript number holds exactly.
    const shares: ListSpec = { ...shareListSpecs.all, filterable: ['file_size_sum'] };
    expect(parseListQuery(query('file_size_sum=>5000000000'), shares).filters).toEqual([{ field: 'file_size_sum', op: 'gt', values: [5_000_000_000] }]);
    expect(refusal(`file_size_sum=>${Number.MAX_SAFE_INTEGER + 2}`, shares).message).toBe(
      `file_size_sum filter value '${Number.MAX_SAFE_INTEGER + 2}' must be between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
    );
  });

  it('finding 20.9: refuses NUL in any parameter name or value', () => {
    for (const text of ['name=a%00', 'sort_by=name%00', 'limit=%00', 'host=><a|%00', 'x%00=1']) {
      expect(refusal(text).message, text).toMatch(/^query parameter ".*" must not contain NUL characters \(%00\)$/);
    }
  });

  it('filters a boolean with true or false, and = or != only', () => {
    expect(parseListQuery(query('admin=true'), userListSpec).filters).toEqual([{ field: 'admin', op: 'eq', values: [1] }]);
    expect(parseListQuery(query('admin=!=true'), userListSpec).filters).toEqual([{ field: 'admin', op: 'ne', values: [1] }]);
    expect(refusal('admin=yes', userListSpec).message).toBe("admin filter value 'yes' must be true or false");
    expect(refusal('admin=>false', userListSpec).message).toBe('admin is true or false: filter it with = or !=');
  });
});

describe('parseListQuery on a decimal field (a NAS price, issue 26 item 4)', () => {
  const decimalMessage = (value: string) =>
    `price filter value '${value}' must be a decimal such as 12.50 (up to 15 digits, optionally a point and up to 4 more)`;

  it('takes decimals with the comparison and list operators, marked to compare as numbers, and null with = and !=', () => {
    expect(parseListQuery(query('price=>100&price=<=250.5'), nasListSpec).filters).toEqual([
      { field: 'price', op: 'gt', values: ['100'], decimal: true },
      { field: 'price', op: 'lte', values: ['250.5'], decimal: true },
    ]);
    expect(parseListQuery(query('price=><9.00|100.5000&price=!=null'), nasListSpec).filters).toEqual([
      { field: 'price', op: 'in', values: ['9.00', '100.5000'], decimal: true },
      { field: 'price', op: 'ne', values: [null], decimal: true },
    ]);
    expect(parseListQuery(query(`price=${'9'.repeat(15)}.9999`), nasListSpec).filters[0]?.values).toEqual([`${'9'.repeat(15)}.9999`]);
    expect(refusal('price=>null').message).toBe('price: null works with = and != only');
  });

  it('refuses what is not a decimal, saying what one is, and the pattern operators, naming the ones it takes', () => {
    for (const value of ['abc', '1e3', '-5', '12.', '.5', '12.50000', '1'.repeat(16), '12,50', '']) {
      expect(refusal(`price=${encodeURIComponent(`>${value}`)}`), value).toEqual({ attribute: 'price', message: decimalMessage(value) });
    }
    expect(refusal('price=><1|x').message).toBe(decimalMessage('x'));
    expect(refusal('price=*5').message).toBe(`${decimalMessage('*5')}, after one of the operators = != > >= < <= >< !><`);
    for (const operator of ['~', '!~', '~*', '!~*']) {
      expect(refusal(`price=${encodeURIComponent(`${operator}1%`)}`)).toEqual({
        attribute: 'price',
        message: 'price is numeric: ~ !~ ~* !~* apply to text attributes; price takes = != > >= < <= >< !><',
      });
    }
  });

  it('sorts as a number, and not case-insensitively', () => {
    expect(parseListQuery(query('sort_by=price:desc'), nasListSpec).sort).toEqual([{ field: 'price', direction: 'desc', nullable: true, decimal: true }]);
    expect(refusal('sort_by=price:ci').message).toBe("sort_by 'price:ci': :ci applies to text attributes, and price is not one");
  });
});

describe('parseListQuery filters on a field of known values', () => {
  const refusal = (raw: RawQuery) => {
    try {
      parseListQuery(raw, jobListSpec);
    } catch (error) {
      return (error as DomainError).messages[0];
    }
    return undefined;
  };

  it('refuses a value the field never holds, naming the ones it does and the closest, where a typo would match nothing', () => {
    expect(refusal({ status: ['running'] })).toBe("status filter value 'running' must be one of queued, working, completed, failed");
    expect(refusal({ status: ['compleated'] })).toBe(
      "status filter value 'compleated' must be one of queued, working, completed, failed; did you mean 'completed'?",
    );
    expect(refusal({ kind: ['><share_test|scan'] })).toMatch(/^kind filter value 'scan' must be one of share_test, share_scan/);
  });

  it('takes its values with every operator, and patterns as they are', () => {
    expect(refusal({ status: ['!><queued|working'], kind: ['share_scan'] })).toBeUndefined();
    expect(refusal({ status: ['~%ed'] })).toBeUndefined();
  });
});

describe('pattern filters: their cost bounded before they run, one escape rule', () => {
  const shares = shareListSpecs.all;
  const refused = (raw: RawQuery) => {
    try {
      parseListQuery(raw, shares);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      expect(error.code).toBe('bad_request');
      return { attribute: Object.keys(error.details)[0], message: error.message };
    }
    return undefined;
  };

  it("issue 40 item 1: the review's six path=!~%a{2048}b terms are refused before they run, naming the bound", () => {
    const review = { path: Array.from({ length: 6 }, () => `!~%${'a'.repeat(2048)}b`) };
    expect(refused(review)).toEqual({
      attribute: 'path',
      message: `path pattern is 2050 characters long: a pattern with a wildcard other than one final % is at most ${patternBounds.maxLength} characters`,
    });
    expect(refused({ path: Array.from({ length: 5 }, () => '!~%a%') })).toEqual({
      attribute: 'path',
      message: `a list takes at most ${patternBounds.maxTerms} pattern terms (~ !~ ~* !~*)`,
    });
    // Over fields: the pattern terms of a request are counted together.
    expect(refused({ name: ['~%a%', '~*%b%'], path: ['!~%c%', '!~*%d%'], options: ['~%e%'] })?.message).toBe(
      `a list takes at most ${patternBounds.maxTerms} pattern terms (~ !~ ~* !~*)`,
    );
    expect(refused({ name: [`~${'%a'.repeat(patternBounds.maxWildcards + 1)}`] })).toEqual({
      attribute: 'name',
      message: `name pattern has ${patternBounds.maxWildcards + 1} wildcards: a pattern takes at most ${patternBounds.maxWildcards} % and _`,
    });
  });

  it('issue 40 item 1: legitimate patterns stay within the bounds', () => {
    const longest = `%${'a'.repeat(patternBounds.maxLength - 2)}%`;
    const accepted: RawQuery[] = [
      { name: ['~%proj%', '!~*%tmp%', '~*share-__'], path: [`~${longest}`] },
      // A plain prefix is a range and a pattern without wildcards one comparison: any length.
      { path: [`~/export/${'d/'.repeat(1000)}%`, `~*/${'x'.repeat(2000)}`] },
      // Escaped wildcards count as characters, not wildcards.
      { name: [`~${'\\%'.repeat(20)}`] },
      { name: [`~${'%a'.repeat(patternBounds.maxWildcards / 2)}${'_'.repeat(patternBounds.maxWildcards / 2)}`] },
    ];
    for (const raw of accepted) expect(refused(raw), JSON.stringify(raw).slice(0, 80)).toBeUndefined();
  });

  it('issue 40 item 8: a pattern ending in a lone backslash is a 400 that says how to escape, not a database error', () => {
    const message = 'name pattern ends in a backslash, which escapes nothing: write \\\\ to match a backslash, \\% and \\_ to match % and _';
    for (const pattern of ['~abc\\', '!~\\', '~*%\\\\\\', '!~*a\\%\\']) expect(refused({ name: [pattern] }), pattern).toEqual({ attribute: 'name', message });
    // An escaped backslash at the end is a backslash.
    for (const pattern of ['~abc\\\\', '~%\\\\']) expect(refused({ name: [pattern] }), pattern).toBeUndefined();
  });
});
