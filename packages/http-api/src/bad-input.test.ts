import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestApp, type TestApp } from './testing/test-app.js';
import { addNas, addShare, expectModelError, readJson, unique, type Nas, type NasShare, type ShareCollectionBody } from './testing/fixtures.js';

/**
 * The reliability bar: no 5xx for any generated bad input. Hand-picked hostile inputs first, then
 * fast-check properties over arbitrary bodies and query strings.
 */
let t: TestApp;
let nas: Nas;
let baseline: NasShare[];

beforeAll(async () => {
  t = await createTestApp();
  nas = await addNas(t, { name: 'bad-input-nas' });
  baseline = [await addShare(t, nas, { name: 'first' }), await addShare(t, nas, { name: 'second' }), await addShare(t, nas, { name: 'third' })];
});
afterAll(() => t.close());

const sharesPath = () => `/api/v2/nas/${nas.id}/nas_shares`;

async function shareCount(): Promise<number> {
  return (await readJson<ShareCollectionBody>(await t.call('GET', '/api/v2/nas_shares', { auth: t.basic }))).count;
}

describe('wrong types', () => {
  it.each<[string, string, Record<string, unknown>, string]>([
    ['share name as a number', 'share', { name: 123, path: '/x' }, 'name'],
    ['share path as an object', 'share', { name: 'n', path: { dir: '/x' } }, 'path'],
    ['share options as an array', 'share', { name: 'n', path: '/x', options: ['ro'] }, 'options'],
    ['share username as a boolean', 'share', { name: 'n', path: '/x', username: true }, 'username'],
    ['trap severity as a string', 'trap', { manager: 'h', severity_low: '3' }, 'severity_low'],
    ['trap activation as a boolean', 'trap', { manager: 'h', activation: true }, 'activation'],
    ['trap manager as a number', 'trap', { manager: 5 }, 'manager'],
    ['trap severity as Infinity (1e400)', 'trap-raw', { raw: '{"manager":"h","severity_high":1e400}' }, 'severity_high'],
    ['NAS type as a number', 'nas', { name: 'n', host: 'h', type: 5 }, 'type'],
    ['pool nas_share_ids as a string', 'pool', { nas_share_ids: '1,2' }, 'nas_share_ids'],
    ['pool nas_share_ids with a fraction', 'pool', { nas_share_ids: [1.5] }, 'nas_share_ids.0'],
  ])('%s → 422 invalid', async (_label, target, body, attribute) => {
    let res: Response;
    if (target === 'share') res = await t.call('POST', sharesPath(), { auth: t.basic, body });
    else if (target === 'trap') res = await t.call('POST', '/api/v2/snmp/traps', { auth: t.basic, body });
    else if (target === 'trap-raw') res = await t.call('POST', '/api/v2/snmp/traps', { auth: t.basic, body: body['raw'] as string });
    else if (target === 'nas') res = await t.call('POST', '/api/v2/nas', { auth: t.basic, body });
    else {
      const pool = await readJson<{ id: number }>(await t.call('POST', '/api/v2/pools', { auth: t.basic, body: { name: unique('typed-pool') } }));
      res = await t.call('PUT', `/api/v2/pools/${pool.id}`, { auth: t.basic, body });
    }
    await expectModelError(res, 422, attribute, 'invalid');
  });

  it('malformed JSON and non-object bodies are 400, never 422 or 5xx', async () => {
    for (const text of ['{', '{"name":"x",}', '[1,2]', '"text"', '3.14', 'null', 'NaN', '{"name": undefined}', '\u0000']) {
      await expectModelError(await t.call('POST', sharesPath(), { auth: t.basic, body: text }), 400, 'body');
      await expectModelError(await t.call('POST', '/api/v2/snmp/traps', { auth: t.basic, body: text }), 400, 'body');
    }
  });
});

describe('overlong strings', () => {
  it('a 256-character share name is 422 too_long with count 255', async () => {
    const body = await expectModelError(
      await t.call('POST', sharesPath(), { auth: t.basic, body: { name: 'n'.repeat(256), path: '/x' } }),
      422,
      'name',
      'too_long',
    );
    expect(body.details['name']).toEqual([{ error: 'too_long', count: 255 }]);
  });

  it('a 4097-character path is 422 too_long with count 4096', async () => {
    const body = await expectModelError(
      await t.call('POST', sharesPath(), { auth: t.basic, body: { name: 'long-path', path: '/'.repeat(4097) } }),
      422,
      'path',
      'too_long',
    );
    expect(body.details['path']).toEqual([{ error: 'too_long', count: 4096 }]);
  });

  it('overlong NAS, pool and trap fields are 422 too_long', async () => {
    await expectModelError(
      await t.call('POST', '/api/v2/nas', { auth: t.basic, body: { name: 'x'.repeat(256), host: 'h', type: 'local' } }),
      422,
      'name',
      'too_long',
    );
    await expectModelError(await t.call('POST', '/api/v2/pools', { auth: t.basic, body: { name: 'x'.repeat(256) } }), 422, 'name', 'too_long');
    await expectModelError(
      await t.call('POST', '/api/v2/pools', { auth: t.basic, body: { name: 'p', comment: 'c'.repeat(1025) } }),
      422,
      'comment',
      'too_long',
    );
    await expectModelError(
      await t.call('POST', '/api/v2/snmp/traps', { auth: t.basic, body: { manager: 'h', community: 'c'.repeat(256) } }),
      422,
      'community',
      'too_long',
    );
  });

  it('a path parameter of 8,000 characters is 404, and a path over 8 KiB is 414, not 5xx', async () => {
    await expectModelError(await t.call('GET', `/api/v2/nas_shares/${'x'.repeat(8_000)}`, { auth: t.basic }), 404, 'nas_share_id', 'not_found');
    await expectModelError(await t.call('GET', `/api/v2/nas_shares/${'x'.repeat(10_000)}`, { auth: t.basic }), 414, 'path', 'too_long');
  });
});

describe('unicode', () => {
  it.each([
    ['emoji', '📁 Projekte 🚀'],
    ['a ZWJ sequence', 'family 👩‍👩‍👧‍👦'],
    ['right-to-left Arabic', 'مشاركة البيانات'],
    ['right-to-left Hebrew with an LRM', 'שיתוף\u200eא'],
    ['combining marks', 'Cafe\u0301 Z\u0335\u0321a\u0336l\u0338g\u0337o'],
    ['CJK', '共有フォルダ'],
    ['astral plane letters', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢'],
  ])('accepts and round-trips a name with %s', async (_label, name) => {
    const path = `data/${name}`;
    const created = await t.call('POST', sharesPath(), { auth: t.basic, body: { name, path, username: name } });
    expect(created.status).toBe(201);
    const share = await readJson<NasShare>(created);
    expect(share).toMatchObject({ name, path, username: name });
    const byId = await readJson<NasShare>(await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic }));
    expect(byId.name).toBe(name);
    const byName = await t.call('GET', `${sharesPath()}/${encodeURIComponent(name)}`, { auth: t.basic });
    expect(byName.status).toBe(200);
    expect((await readJson<NasShare>(byName)).id).toBe(share.id);
    const filtered = await readJson<ShareCollectionBody>(await t.call('GET', `/api/v2/nas_shares?name=${encodeURIComponent(name)}`, { auth: t.basic }));
    expect(filtered.nas_shares.map((s) => s.id)).toEqual([share.id]);
    // composed and decomposed forms are different names: no silent normalisation
    if (name.normalize('NFC') !== name) {
      const composed = await readJson<ShareCollectionBody>(
        await t.call('GET', `/api/v2/nas_shares?name=${encodeURIComponent(name.normalize('NFC'))}`, { auth: t.basic }),
      );
      expect(composed.count).toBe(0);
    }
  });

  it('a share name with / is reachable with / written as %2F', async () => {
    const name = 'team/projects?#%';
    const share = await addShare(t, nas, { name });
    const res = await t.call('GET', `${sharesPath()}/${encodeURIComponent(name)}`, { auth: t.basic });
    expect(res.status).toBe(200);
    expect((await readJson<NasShare>(res)).id).toBe(share.id);
  });

  it('a unicode NAS name works as a path parameter', async () => {
    const other = await addNas(t, { name: 'ストレージ 🗄' });
    const share = await addShare(t, other);
    const res = await t.call('GET', `/api/v2/nas/${encodeURIComponent(other.name)}/nas_shares/${share.id}`, { auth: t.basic });
    expect(res.status).toBe(200);
  });
});

describe('control characters', () => {
  it.each([
    ['NUL in a name', { name: 'a\u0000b', path: '/x' }, 'name'],
    ['a newline in a name', { name: 'a\nb', path: '/x' }, 'name'],
    ['a tab in a name', { name: 'a\tb', path: '/x' }, 'name'],
    ['DEL in a name', { name: 'a\u007fb', path: '/x' }, 'name'],
    ['a carriage return in a path', { name: 'ok', path: '/x\r/y' }, 'path'],
    ['an escape in a username', { name: 'ok', path: '/x', username: 'u\u001b[31m' }, 'username'],
    ['NUL in a password', { name: 'ok', path: '/x', password: 'p\u0000' }, 'password'],
    ['a newline in options', { name: 'ok', path: '/x', options: 'ro\nrw' }, 'options'],
  ])('rejects %s with 422 invalid', async (_label, body, attribute) => {
    const before = await shareCount();
    await expectModelError(await t.call('POST', sharesPath(), { auth: t.basic, body }), 422, attribute, 'invalid');
    expect(await shareCount()).toBe(before);
  });

  it('rejects control characters in NAS, pool, trap and configuration fields', async () => {
    await expectModelError(
      await t.call('POST', '/api/v2/nas', { auth: t.basic, body: { name: 'n', host: 'h', type: 'local', comment: 'x\u0000' } }),
      422,
      'comment',
      'invalid',
    );
    await expectModelError(await t.call('POST', '/api/v2/pools', { auth: t.basic, body: { name: 'p\u0008' } }), 422, 'name', 'invalid');
    await expectModelError(
      await t.call('POST', '/api/v2/snmp/traps', { auth: t.basic, body: { manager: 'h', community: 'pub\u0007' } }),
      422,
      'community',
      'invalid',
    );
    await expectModelError(
      await t.call('PUT', '/api/v2/snmp/server_configuration', { auth: t.basic, body: { location: 'l\u001f' } }),
      422,
      'location',
      'invalid',
    );
  });
});

describe('injection-shaped values are plain values', () => {
  const hostile = [
    "'; drop table nas_shares; --",
    "~%' or 1=1 --",
    '" or ""="',
    "first' or '1'='1",
    '1) or (1=1',
    '%',
    '_____',
    "\\'; select * from users; --",
  ];

  it.each(hostile)('GET /nas_shares?name=%s → 200, no extra rows, table intact', async (value) => {
    const before = await shareCount();
    const res = await t.call('GET', `/api/v2/nas_shares?name=${encodeURIComponent(value)}`, { auth: t.basic });
    expect(res.status).toBe(200);
    const body = await readJson<ShareCollectionBody>(res);
    // an exact match on a name nobody has: nothing, and certainly not every row
    expect(body.nas_shares.every((share) => share.name === value.replace(/^=/, ''))).toBe(true);
    expect(body.count).toBeLessThan(before);
    expect(await shareCount()).toBe(before);
    for (const share of baseline) expect((await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic })).status).toBe(200);
  });

  it('a LIKE pattern with SQL in it matches only names that contain that text', async () => {
    const res = await t.call('GET', `/api/v2/nas_shares?name=${encodeURIComponent("~%' or 1=1 --")}`, { auth: t.basic });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ count: 0, nas_shares: [] });
    const all = await t.call('GET', `/api/v2/nas_shares?name=${encodeURIComponent('~%')}&limit=1`, { auth: t.basic });
    expect((await readJson<ShareCollectionBody>(all)).count).toBe(await shareCount());
  });

  it('a share may be named like an injection and is found by exactly that name', async () => {
    const name = "x'); drop table nas_shares; --";
    const share = await addShare(t, nas, { name });
    const res = await readJson<ShareCollectionBody>(await t.call('GET', `/api/v2/nas_shares?name=${encodeURIComponent(name)}`, { auth: t.basic }));
    expect(res.nas_shares.map((s) => s.id)).toEqual([share.id]);
    expect((await t.call('GET', `${sharesPath()}/${encodeURIComponent(name)}`, { auth: t.basic })).status).toBe(200);
  });

  it.each([
    ['sort_by=name;drop table nas_shares', 'sort_by'],
    ['sort_by=name desc', 'sort_by'],
    ['sort_by=(select 1)', 'sort_by'],
    ['id=1 or 1=1', 'id'],
    ['id=><1|2) or (1=1', 'id'],
    ['pool_id=null or 1=1', 'pool_id'],
  ])('%s → 400 and the table is intact', async (query, attribute) => {
    const before = await shareCount();
    await expectModelError(await t.call('GET', `/api/v2/nas_shares?${query.replace(/ /g, '%20')}`, { auth: t.basic }), 400, attribute, 'invalid');
    expect(await shareCount()).toBe(before);
  });

  it('query parameter names that are not attributes are 400 naming the accepted ones, and the table is intact', async () => {
    const before = await shareCount();
    for (const query of ['name)--=1', '1=1', "name'=x", '__proto__[id]=1', 'constructor=1', 'toString=1']) {
      const res = await t.call('GET', `/api/v2/nas_shares?${encodeURI(query)}`, { auth: t.basic });
      const name = query.slice(0, query.lastIndexOf('='));
      const body = await expectModelError(res, 400, name, 'invalid');
      expect(body.messages[0], query).toMatch(new RegExp(`^unknown query parameter '.+'; accepted: limit, offset, page, per_page, sort_by, id, name, `));
    }
    expect(await shareCount()).toBe(before);
  });
});

describe('huge numbers', () => {
  it.each([
    'limit=99999999999999999999',
    'offset=99999999999999999999',
    'page=99999999999999999999',
    'per_page=99999999999999999999',
    'id=1e400',
    'id=99999999999999999999',
    'id=>-99999999999999999999',
    'id=><1|99999999999999999999',
    'nas_id=1e400',
    'pool_id=Infinity',
    'limit=1e2',
    'offset=0x10',
  ])('GET /nas_shares?%s → 400', async (query) => {
    const res = await t.call('GET', `/api/v2/nas_shares?${query}`, { auth: t.basic });
    await expectModelError(res, 400);
  });

  it('a huge but valid offset or page gives an empty page with the full count', async () => {
    const count = await shareCount();
    for (const query of ['offset=999999999999999', 'page=90071992547409', 'page=90071992547409&per_page=100']) {
      const res = await t.call('GET', `/api/v2/nas_shares?${query}`, { auth: t.basic });
      expect(res.status, query).toBe(200);
      expect(await res.json()).toEqual({ count, nas_shares: [] });
    }
    expect((await t.call('GET', '/api/v2/snmp/traps?page=90071992547409', { auth: t.basic })).status).toBe(200);
  });

  it('huge ids in paths are 404 and in bodies are 422', async () => {
    for (const path of [
      '/api/v2/nas_shares/99999999999999999999',
      '/api/v2/nas_shares/9007199254740993',
      '/api/v2/snmp/traps/99999999999999999999',
      '/api/v2/nas/1e400',
      '/api/v2/pools/99999999999999999999/nas_shares',
    ]) {
      await expectModelError(await t.call('GET', path, { auth: t.basic }), 404);
    }
    const pool = await readJson<{ id: number }>(await t.call('POST', '/api/v2/pools', { auth: t.basic, body: { name: unique('huge-pool') } }));
    await expectModelError(await t.call('PUT', `/api/v2/pools/${pool.id}`, { auth: t.basic, body: '{"nas_share_ids":[1e400]}' }), 422, 'nas_share_ids.0');
    await expectModelError(
      await t.call('PUT', `/api/v2/pools/${pool.id}`, { auth: t.basic, body: { nas_share_ids: [99999999999999999999] } }),
      422,
      'nas_share_ids.0',
      'less_than_or_equal_to',
    );
    await expectModelError(
      await t.call('POST', '/api/v2/snmp/traps', { auth: t.basic, body: { manager: 'h', severity_low: Number.MAX_SAFE_INTEGER } }),
      422,
      'severity_low',
      'less_than_or_equal_to',
    );
  });
});

describe('generated input never gives a 5xx (fast-check)', () => {
  const anyString = fc.string({ unit: 'binary', maxLength: 300 });
  const shareLike = fc.record(
    {
      name: fc.oneof(anyString, fc.jsonValue()),
      path: fc.oneof(anyString, fc.jsonValue()),
      options: fc.oneof(anyString, fc.constant(null), fc.jsonValue()),
      username: fc.oneof(anyString, fc.constant(null)),
      password: fc.oneof(anyString, fc.constant(null)),
      id: fc.jsonValue(),
      pool_id: fc.jsonValue(),
    },
    { requiredKeys: [] },
  );
  const trapLike = fc.record(
    {
      manager: fc.oneof(
        anyString,
        fc.domain(),
        fc.ipV4(),
        fc.ipV6().map((ip) => `[${ip}]`),
        fc.jsonValue(),
      ),
      activation: fc.oneof(fc.integer(), fc.double(), fc.jsonValue()),
      version: fc.oneof(fc.constantFrom('v1', 'v2c', 'v3', ''), fc.jsonValue()),
      community: fc.oneof(anyString, fc.jsonValue()),
      severity_low: fc.oneof(fc.integer({ min: -10, max: 10 }), fc.double(), fc.jsonValue()),
      severity_high: fc.oneof(fc.integer({ min: -10, max: 10 }), fc.double(), fc.jsonValue()),
    },
    { requiredKeys: [] },
  );
  /** A JSON text: a value of any shape, or bytes that are not JSON at all. */
  const bodyText = (object: fc.Arbitrary<unknown>) =>
    fc.oneof(
      { weight: 3, arbitrary: object.map((value) => JSON.stringify(value)) },
      { weight: 2, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
      { weight: 1, arbitrary: anyString },
    );

  it('POST /nas/{nas_id}/nas_shares answers only 201, 400, 409 or 422', async () => {
    await fc.assert(
      fc.asyncProperty(bodyText(shareLike), async (text) => {
        const res = await t.call('POST', sharesPath(), { auth: t.basic, body: text });
        const body = await res.text();
        expect([201, 400, 409, 422], `${res.status} for ${JSON.stringify(text)}: ${body}`).toContain(res.status);
        if (res.status !== 201) expect(JSON.parse(body)).toMatchObject({ details: expect.any(Object), messages: expect.any(Array) });
      }),
      { numRuns: 200 },
    );
  });

  it('POST /snmp/traps answers only 201, 400, 409 or 422', async () => {
    await fc.assert(
      fc.asyncProperty(bodyText(trapLike), async (text) => {
        const res = await t.call('POST', '/api/v2/snmp/traps', { auth: t.basic, body: text });
        const body = await res.text();
        expect([201, 400, 409, 422], `${res.status} for ${JSON.stringify(text)}: ${body}`).toContain(res.status);
      }),
      { numRuns: 200 },
    );
  });

  it('PUT on a share and on the server configuration answer only 200, 400, 409 or 422', async () => {
    await fc.assert(
      fc.asyncProperty(bodyText(shareLike), async (text) => {
        const res = await t.call('PUT', `/api/v2/nas_shares/${baseline[0]!.id}`, { auth: t.basic, body: text });
        expect([200, 400, 409, 422], `${res.status} for ${JSON.stringify(text)}`).toContain(res.status);
        const config = await t.call('PUT', '/api/v2/snmp/server_configuration', { auth: t.basic, body: text });
        expect([200, 400, 422], `${config.status} for ${JSON.stringify(text)}`).toContain(config.status);
      }),
      { numRuns: 100 },
    );
  });

  const paramName = fc.oneof(
    fc.constantFrom(
      'limit',
      'offset',
      'page',
      'per_page',
      'sort_by',
      'id',
      'name',
      'path',
      'options',
      'username',
      'nas_id',
      'pool_id',
      'password',
      'file_count',
      '__proto__',
      'constructor',
      '',
    ),
    fc.string({ maxLength: 12 }),
  );
  const operator = fc.constantFrom('', '=', '!=', '>', '>=', '<', '<=', '><', '!><', '~', '!~');
  const paramValue = fc.oneof(
    fc.tuple(operator, fc.oneof(fc.integer().map(String), fc.bigInt().map(String), fc.double().map(String), fc.constant('null'))).map(([op, v]) => op + v),
    fc
      .tuple(operator, fc.array(fc.oneof(fc.integer({ min: -5, max: 50 }).map(String), fc.string({ maxLength: 5 })), { maxLength: 5 }))
      .map(([op, vs]) => op + vs.join('|')),
    fc.tuple(fc.constantFrom('name', 'id', 'path', 'pool_id', 'password', 'nope'), fc.constantFrom('', ':asc', ':desc', ':up')).map(([f, d]) => f + d),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
  );
  const encodedPair = fc.tuple(paramName, paramValue).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  /** Raw, unencoded text: stray %, &, =, + and whatever else a client might send. */
  const rawFragment = fc.string({ unit: fc.constantFrom(...[...'%&=+|~!<>:;,./?#[]@$\'"()*_- aZ09\u00e9\u{1F600}']), maxLength: 30 });
  const queryString = fc
    .array(fc.oneof({ weight: 3, arbitrary: encodedPair }, { weight: 1, arbitrary: rawFragment }), { maxLength: 6 })
    .map((parts) => parts.join('&'));

  it('GET /nas_shares with arbitrary query strings answers only 200 or 400', async () => {
    await fc.assert(
      fc.asyncProperty(queryString, async (query) => {
        const res = await t.call('GET', `/api/v2/nas_shares?${query}`, { auth: t.basic });
        const body = await res.text();
        expect([200, 400], `${res.status} for ?${query}: ${body}`).toContain(res.status);
        const parsed = JSON.parse(body) as Record<string, unknown>;
        if (res.status === 200) expect(Array.isArray(parsed['nas_shares'])).toBe(true);
        else expect(parsed).toMatchObject({ details: expect.any(Object), messages: expect.any(Array) });
      }),
      { numRuns: 300 },
    );
  });

  it('the other lists answer arbitrary query strings with only 200 or 400 (404 for unknown NAS or pool)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          `/api/v2/nas/${encodeURIComponent('bad-input-nas')}/nas_shares`,
          '/api/v2/pools/1/nas_shares',
          '/api/v2/snmp/traps',
          '/api/v2/nas',
          '/api/v2/pools',
        ),
        queryString,
        async (path, query) => {
          const res = await t.call('GET', `${path}?${query}`, { auth: t.basic });
          expect([200, 400, 404], `${res.status} for ${path}?${query}`).toContain(res.status);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('arbitrary path segments never give a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/v2/nas_shares/', '/api/v2/nas/', '/api/v2/snmp/traps/', '/api/v2/pools/'),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
        fc.constantFrom('GET', 'PUT'),
        async (prefix, segment, method) => {
          const res = await t.call(method, prefix + encodeURIComponent(segment), { auth: t.basic, ...(method === 'PUT' ? { body: { comment: 'c' } } : {}) });
          expect(res.status, `${method} ${prefix}${segment}`).toBeGreaterThanOrEqual(200);
          expect(res.status, `${method} ${prefix}${segment}`).toBeLessThan(500);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the baseline shares are still there afterwards', async () => {
    for (const share of baseline) {
      const res = await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic });
      expect(res.status).toBe(200);
    }
  });
});
