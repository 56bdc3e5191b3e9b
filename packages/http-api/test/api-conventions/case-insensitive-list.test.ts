import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addPool, addShare, expectModelError, type Nas } from '../../src/testing/fixtures.js';

/**
 * Issue 26 item 6 and issue 29 item 7 over REST, on each storage adapter (the vitest projects):
 * `~*` and `!~*` ignore the case of ASCII letters, `sort_by=ATTR:ci` orders text the same way,
 * while `~`, `!~` and `sort_by=ATTR` answer as they always did; a misused operator is a 400
 * that names the operators, and the API description documents both.
 */
let t: TestApp;
let filer: Nas;
const names = ['Proj-000', 'proj-001', 'PROJECTS', 'alpha', 'Beta', 'gamma', 'other'];

beforeAll(async () => {
  t = await createTestApp();
  filer = await addNas(t, { name: 'ci-filer' });
  for (const name of names) {
    await addShare(t, filer, { name, path: name });
    await addNas(t, { name: `ci-${name}` });
    await addPool(t, { name: `ci-${name}` });
  }
});
afterAll(async () => {
  await t?.close();
});

async function names200(path: string): Promise<string[]> {
  const res = await t.call('GET', `/api/v2${path}`, { auth: t.basic });
  const text = await res.text();
  expect(res.status, `${path}: ${text}`).toBe(200);
  const body = JSON.parse(text) as Record<string, unknown>;
  const key = Object.keys(body).find((name) => name !== 'count')!;
  return (body[key] as Array<{ name: string }>).map((item) => item.name);
}

async function refusal(path: string, attribute: string): Promise<string> {
  const body = await expectModelError(await t.call('GET', `/api/v2${path}`, { auth: t.basic }), 400, attribute, 'invalid');
  expect(body.messages).toHaveLength(1);
  return body.messages[0]!;
}

describe('case-insensitive filters', () => {
  it('GET /nas_shares?name=~*proj%25 finds Proj-000 and every other case of the prefix', async () => {
    expect(await names200('/nas_shares?name=~*proj%25')).toEqual(['Proj-000', 'proj-001', 'PROJECTS']);
    expect(await names200('/nas_shares?name=~*PROJ-%25&sort_by=name')).toEqual(['Proj-000', 'proj-001']);
    expect(await names200(`/nas/${filer.id}/nas_shares?name=~*%25ALPH%25`)).toEqual(['alpha']);
  });

  it('!~* keeps the rest; ~ and !~ stay case-sensitive', async () => {
    expect(await names200('/nas_shares?name=!~*proj%25')).toEqual(['alpha', 'Beta', 'gamma', 'other']);
    expect(await names200('/nas_shares?name=~proj%25')).toEqual(['proj-001']);
    expect(await names200('/nas_shares?name=!~proj%25')).toEqual(['Proj-000', 'PROJECTS', 'alpha', 'Beta', 'gamma', 'other']);
    expect(await names200('/nas?name=~*CI-BETA')).toEqual(['ci-Beta']);
  });

  it('refuses a pattern operator on a numeric attribute, and a misspelt operator, naming the operators', async () => {
    expect(await refusal('/nas_shares?id=~*1%25', 'id')).toBe('id is numeric: ~ !~ ~* !~* apply to text attributes; id takes = != > >= < <= >< !><');
    expect(await refusal('/nas_shares?nas_id=*1', 'nas_id')).toBe(
      "nas_id filter value '*1' must be an integer between -2147483648 and 2147483647, after one of the operators = != > >= < <= >< !><",
    );
  });
});

describe('case-insensitive order', () => {
  it('sort_by=name:ci reads alpha, Beta, gamma; sort_by=name stays byte-wise', async () => {
    expect(await names200('/nas_shares?sort_by=name:ci')).toEqual(['alpha', 'Beta', 'gamma', 'other', 'Proj-000', 'proj-001', 'PROJECTS']);
    expect(await names200('/nas_shares?sort_by=name:desc:ci&limit=3')).toEqual(['PROJECTS', 'proj-001', 'Proj-000']);
    expect(await names200('/nas_shares?sort_by=name')).toEqual(['Beta', 'PROJECTS', 'Proj-000', 'alpha', 'gamma', 'other', 'proj-001']);
    expect(await names200('/pools?sort_by=name:ci&name=~ci-%25&limit=3')).toEqual(['ci-alpha', 'ci-Beta', 'ci-gamma']);
    // ci-alpha, ci-Beta, ci-filer, then page 2:
    expect(await names200('/nas?sort_by=name:ci&name=~ci-%25&page=2&per_page=3')).toEqual(['ci-gamma', 'ci-other', 'ci-Proj-000']);
  });

  it('refuses :ci on a numeric attribute or out of place, saying the form', async () => {
    expect(await refusal('/nas_shares?sort_by=id:ci', 'sort_by')).toBe("sort_by 'id:ci': :ci applies to text attributes, and id is not one");
    expect(await refusal('/nas_shares?sort_by=name:ci:desc', 'sort_by')).toBe(
      "sort_by 'name:ci:desc' must be ATTRIBUTE, ATTRIBUTE:asc or ATTRIBUTE:desc, optionally followed by :ci (case-insensitive)",
    );
  });
});

describe('the API description', () => {
  it('documents ~*, !~* and :ci in the introduction and on each filter parameter', async () => {
    const res = await t.call('GET', '/api/v2/openapi.json');
    expect(res.status).toBe(200);
    const document = (await res.json()) as {
      info: { description: string };
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; description?: string }> }>>;
    };
    expect(document.info.description).toContain('| `~*` | matches a pattern ignoring the case of ASCII letters |');
    expect(document.info.description).toContain('| `!~*` |');
    expect(document.info.description).toContain('`sort_by=name:ci`');
    const parameters = document.paths['/nas_shares']!['get']!.parameters!;
    expect(parameters.find((p) => p.name === 'name')?.description).toMatch(/= != > >= < <= >< !>< ~ !~ ~\* !~\*/);
    expect(parameters.find((p) => p.name === 'sort_by')?.description).toContain(':ci');
  });
});
