import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate, compileErrors } from '@readme/openapi-parser';
// Through the package's entry, as the SDK build and other consumers import it.
import { openApiDocument, operationIds, routeContracts } from '../index.js';

interface Operation {
  operationId?: string;
  description?: string;
  security?: unknown[];
  'x-scope'?: string;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}

function operationsOf(document: ReturnType<typeof openApiDocument>): Array<{ key: string; op: Operation }> {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  return Object.entries(paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ key: `${method} ${path}`, op })));
}

describe('openApiDocument()', () => {
  // This file never opens storage nor creates a core: the document comes from the contracts alone.
  it('builds without a database or a core', () => {
    const document = openApiDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('2.1.0');
    expect(document.servers).toEqual([{ url: '/api/v2' }]);
    expect(operationsOf(document)).toHaveLength(routeContracts.length);
  });

  it('validates as OpenAPI 3.1 (@readme/openapi-parser)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dms-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(openApiDocument()));
      const result = await validate(file);
      expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
      expect(result.specification).toBe('OpenAPI');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives every operation a unique camelCase operationId, each from the table once', () => {
    const ids = operationsOf(openApiDocument()).map(({ op }) => op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(Object.values(operationIds).sort());
  });

  it('gives every operation an x-scope matching its description, but the public login and /api_keys/current', () => {
    const unscoped: string[] = [];
    for (const { key, op } of operationsOf(openApiDocument())) {
      if (op['x-scope'] === undefined) {
        unscoped.push(key);
        continue;
      }
      expect(op['x-scope'], key).toMatch(/^[a-z_]+\/[a-z_]+$/);
      expect(op.description, key).toMatch(new RegExp(`^Scope: \`${op['x-scope'].replace('/', ' / ')}[ \`]`));
    }
    expect(unscoped.sort()).toEqual(['get /api_keys/current', 'post /auth/login']);
  });

  it('describes every 4xx and 5xx with model_error', () => {
    for (const { key, op } of operationsOf(openApiDocument())) {
      const errors = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      expect(errors.map(([status]) => status), key).toEqual(expect.arrayContaining(['400', '401', '403', '414', '429']));
      for (const [status, response] of errors) {
        expect(response.content?.['application/json']?.schema?.$ref, `${key} ${status}`).toBe('#/components/schemas/model_error');
      }
    }
  });
});
