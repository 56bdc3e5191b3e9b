import { describe, expect, it } from 'vitest';
import { explicitOnlyActions, scopeCatalogue } from '@dms/core';
import { scopePresets } from './scope-presets.js';

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
