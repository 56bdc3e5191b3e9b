import { describe, expect, it } from 'vitest';
import { v3SecretFields } from '@dms/core';
import { openApiDocument } from './openapi-document.js';
import { redactedPaths } from '../http/logger.js';

/**
 * Issue 26 item 5: the reference page sends an example as it is ("Test request"), against the
 * server that serves it. No example body of a write operation may set or clear a secret: the
 * fields the server keeps out of its logs (http/logger.ts) and seals as SNMPv3 secrets, at any
 * depth. test/api-conventions/reference-examples.test.ts sends every example to a running server and
 * checks with the audit trail that no stored secret changed.
 */

interface Operation {
  operationId: string;
  parameters?: Array<{ name: string; in: string; example?: unknown }>;
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown; summary?: string }> }> };
}

const writeMethods = ['post', 'put', 'patch', 'delete'];
const document = openApiDocument() as unknown as { paths: Record<string, Record<string, Operation>> };
const writes = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => writeMethods.includes(method))
    .map(([method, op]) => ({ key: `${method} ${path}`, op })),
);

/** `password`, `*.password`, `body.password`, `headers.authorization` → the field names. */
const secretFields: ReadonlySet<string> = new Set([...redactedPaths.map((path) => path.split('.').at(-1)!), ...v3SecretFields]);

/** Every key of a JSON value, at any depth, with where it is. */
function keysOf(value: unknown, at = ''): Array<{ key: string; at: string }> {
  if (Array.isArray(value)) return value.flatMap((item, i) => keysOf(item, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [{ key, at: `${at}.${key}` }, ...keysOf(inner, `${at}.${key}`)]);
}

/** The one write whose body is a credential to check, not one to store: a login stores nothing. */
const checksOnly = new Set(['login']);

describe('example bodies of write operations', () => {
  it('the secret fields come from what the server masks: passwords, communities, SNMPv3 passphrases', () => {
    for (const field of ['password', 'community', 'auth_passphrase', 'priv_passphrase']) expect(secretFields.has(field), field).toBe(true);
  });

  it('walks every write operation with a body, and each has an example', () => {
    const withBody = writes.filter(({ op }) => op.requestBody);
    expect(withBody.length).toBeGreaterThan(20);
    for (const { key, op } of withBody) expect(Object.keys(op.requestBody!.content['application/json']?.examples ?? {}), key).not.toHaveLength(0);
  });

  it('no example body of a write operation sets or clears a secret or a password, but the login it checks', () => {
    const found: string[] = [];
    for (const { key, op } of writes) {
      if (checksOnly.has(op.operationId)) continue;
      for (const [name, example] of Object.entries(op.requestBody?.content['application/json']?.examples ?? {})) {
        for (const { key: field, at } of keysOf(example.value)) if (secretFields.has(field)) found.push(`${key} example ${name}: ${at}`);
      }
    }
    expect(found).toEqual([]);
    const login = writes.find(({ op }) => checksOnly.has(op.operationId));
    expect(login?.key).toBe('post /auth/login');
  });

  it('prefills every path parameter of a write operation with a placeholder no record has', () => {
    for (const { key, op } of writes) {
      for (const parameter of (op.parameters ?? []).filter((p) => p.in === 'path')) {
        expect(parameter.example, `${key} ${parameter.name}`).toBeDefined();
        expect(['0', 'SOURCE'], `${key} ${parameter.name}`).toContain(parameter.example);
      }
    }
  });

  it('names an example the server refuses as it is a placeholder, and says why', () => {
    const placeholders = writes.flatMap(({ key, op }) =>
      Object.entries(op.requestBody?.content['application/json']?.examples ?? {})
        .filter(([name]) => name === 'placeholder')
        .map(([, example]) => ({ key, summary: example.summary })),
    );
    expect(placeholders.map(({ key }) => key).sort()).toEqual(['post /auth/totp/confirm', 'post /auth/totp/disable', 'post /users']);
    // A user needs a password nobody knows; a TOTP code cannot be known before its time.
    for (const { key, summary } of placeholders) expect(summary, key).toMatch(key === 'post /users' ? /password/ : /code/);
  });

  it('says on the update of a singleton that its example changes nothing, and shows a change', () => {
    for (const path of ['/settings', '/snmp/server_configuration']) {
      const put = document.paths[path]?.['put'] as (Operation & { description?: string }) | undefined;
      expect(put?.requestBody?.content['application/json']?.examples?.['example']?.value, path).toEqual({});
      expect(put?.description, path).toMatch(/For instance `\{".+\}`; the example body is empty/);
    }
  });
});
