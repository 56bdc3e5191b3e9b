import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtInRoles, explicitOnlyActions, scopeCatalogue } from '@dms/core';
import { restOperations } from './rest-operations.js';

/**
 * The scope catalogue lives in the core (its services check the pairs, typed by it; the console's
 * picker and the CLI's `--scope` validation read it), and the core imports no host. What the
 * REST operations declare is its source (decision 145): each pair of the catalogue is the scope of
 * an operation, or one of the few a service checks beyond an operation's own, listed here with
 * where. docs/api.md's scope table is checked against the same catalogue.
 */
const checkedBeyondOperations: Record<string, string> = {
  'nas_shares/get_password': "reveals a share's password in the answers of the nas_shares operations (decision 041)",
  'traps/get_password': "reveals a v3 trap target's passphrases in the answers of the trap operations",
  'server_configuration/get_password': "reveals the SNMP agent's community in the configuration's answer (decision 051)",
  'metrics/index': 'GET /metrics, served by the app beside /api/v2 (app.ts), not an operation of the document',
};

const pair = (controller: string, action: string) => `${controller}/${action}`;
const catalogued = scopeCatalogue.flatMap(({ controller, actions }) => actions.map((action: string) => pair(controller, action)));
const declared = [...new Set(restOperations.flatMap((operation) => (operation.scope ? [pair(operation.scope.controller, operation.scope.action)] : [])))];

describe('the scope catalogue, derived from what the operations declare', () => {
  it('holds every scope an operation requires', () => {
    expect(declared.filter((scope) => !catalogued.includes(scope))).toEqual([]);
  });

  it('holds no pair that neither an operation requires nor a service checks beyond one', () => {
    const unexplained = catalogued.filter((scope) => !declared.includes(scope) && !(scope in checkedBeyondOperations));
    expect(unexplained).toEqual([]);
  });

  it('lists beyond the operations only pairs that the catalogue holds and no operation requires', () => {
    for (const scope of Object.keys(checkedBeyondOperations)) {
      expect(catalogued, scope).toContain(scope);
      expect(declared, scope).not.toContain(scope);
    }
  });

  it('is what docs/api.md#scopes tells a reader, row by row', () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
    const api = readFileSync(join(root, 'docs', 'api.md'), 'utf8');
    const section = api.slice(api.indexOf('\n## Scopes\n'), api.indexOf('\n## ', api.indexOf('\n## Scopes\n') + 1));
    const documented: string[] = [];
    for (const [, controllers, actions] of section.matchAll(/^\| (`[^|]+) \| (`[^|]+) \|$/gm)) {
      const names = [...controllers!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!);
      const verbs = [...actions!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!);
      for (const controller of names) for (const action of verbs) documented.push(pair(controller, action));
    }
    expect(documented.sort()).toEqual([...catalogued].sort());
    const prose = section.replace(/\s+/g, ' ');
    for (const action of explicitOnlyActions) expect(prose).toContain(`any action except \`${action}\`, which must be granted literally`);
  });

  it('docs/api.md#roles lists each built-in role with exactly its scopes (docs/decisions/176-roles.md)', () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
    const api = readFileSync(join(root, 'docs', 'api.md'), 'utf8');
    const start = api.indexOf('\n## Roles\n');
    const section = api.slice(start, api.indexOf('\n## ', start + 1));
    const documented = new Map<string, string[]>();
    for (const [, name, cell] of section.matchAll(/^\| `([a-z]+)` \| (.+) \|$/gm)) {
      const scopes = cell!.split('; ').flatMap((group) => {
        const [controller, ...actions] = [...group.matchAll(/`([a-z_*]+)`/g)].map((match) => match[1]!);
        return actions.map((action) => pair(controller!, action));
      });
      documented.set(name!, scopes.sort());
    }
    expect(Object.fromEntries(documented)).toEqual(
      Object.fromEntries(builtInRoles.map((role) => [role.name, role.scopes.map((scope) => pair(scope.controller, scope.action)).sort()])),
    );
  });
});
