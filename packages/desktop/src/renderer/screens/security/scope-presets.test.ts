import { describe, expect, it } from 'vitest';
import { explicitOnlyActions, scopeCatalogue } from '@dms/core';
import { presetOf, scopePresets, scopesText } from './scope-presets.js';

const preset = (id: string) => scopePresets.find((entry) => entry.id === id)!.scopes.map(({ controller, action }) => `${controller}/${action}`);
const catalogue = scopeCatalogue.flatMap(({ controller, actions }) => actions.map((action: string) => `${controller}/${action}`));

describe('the API key form’s scope presets', () => {
  it('read-only holds index and show of every controller that has them, and nothing else', () => {
    const readOnly = preset('read-only');
    expect(readOnly).toEqual(catalogue.filter((pair) => /\/(index|show)$/.test(pair)));
    for (const { controller, actions } of scopeCatalogue) {
      if (actions.some((action: string) => action === 'index' || action === 'show'))
        expect(readOnly.some((pair) => pair.startsWith(`${controller}/`))).toBe(true);
    }
    expect(readOnly).toContain('nas/index');
    expect(readOnly).toContain('statistics/show');
    expect(readOnly).not.toContain('nas/create');
  });

  it('read-only reads the users and the audit log too', () => {
    expect(preset('read-only')).toEqual(expect.arrayContaining(['users/index', 'users/show', 'audit_events/index', 'alert_settings/index']));
  });

  it('names a key’s scopes by their preset when they are exactly one, in any order, else a controller once with its actions', () => {
    const operator = scopePresets.find((entry) => entry.id === 'operator')!;
    expect(scopesText([...operator.scopes].reverse())).toBe('Operator');
    expect(presetOf(operator.scopes.slice(1))).toBeUndefined();
    expect(
      scopesText([
        { controller: 'nas_shares', action: 'index' },
        { controller: 'nas_shares', action: 'test' },
        { controller: 'traps', action: '*' },
      ]),
    ).toBe('nas_shares: index, test; traps: *');
  });

  it('operator is read-only plus the test and scan of shares', () => {
    const extra = preset('operator').filter((pair) => !preset('read-only').includes(pair));
    expect(extra.sort()).toEqual(['nas_shares/scan', 'nas_shares/test']);
  });

  it('full holds every pair of the catalogue but the explicit-only actions', () => {
    const full = preset('full');
    expect(full).toEqual(catalogue.filter((pair) => !explicitOnlyActions.some((action) => pair.endsWith(`/${action}`))));
    expect(full).not.toContain('nas_shares/get_password');
    expect(full).not.toContain('server_configuration/get_password');
    expect(full).toContain('traps/test');
  });
});
