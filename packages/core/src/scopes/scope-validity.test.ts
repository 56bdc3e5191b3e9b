import { describe, expect, it } from 'vitest';
import { scopeProblem } from './scope-validity.js';
import { scopeCatalogue } from './scope-catalogue.js';

describe('scopeProblem (security round 2, finding 20.7)', () => {
  it('takes every catalogue pair, and * in either field', () => {
    for (const { controller, actions } of scopeCatalogue) {
      for (const action of [...actions, '*']) expect(scopeProblem({ controller, action }), `${controller}/${action}`).toBeUndefined();
    }
    for (const action of ['*', 'index', 'get_password', 'scan']) expect(scopeProblem({ controller: '*', action })).toBeUndefined();
  });

  it('names the field, what is allowed and the closest name', () => {
    expect(scopeCatalogue.map(({ controller }) => controller)).toEqual(expect.arrayContaining(['nas', 'pools', 'nas_shares', 'users', 'metrics']));
    expect(scopeProblem({ controller: 'nas_share', action: 'index' })).toEqual({
      field: 'controller',
      // Every controller the catalogue holds, in its order: a new resource's scopes are offered at once.
      message: `must be * or one of ${scopeCatalogue.map(({ controller }) => controller).join(', ')}; did you mean 'nas_shares'?`,
    });
    expect(scopeProblem({ controller: 'nas_shares', action: 'indx' })).toEqual({
      field: 'action',
      message: "must be * or an action of nas_shares: index, show, create, update, destroy, test, scan, get_password; did you mean 'index'?",
    });
    expect(scopeProblem({ controller: 'metrics', action: 'show' })).toEqual({ field: 'action', message: 'must be * or an action of metrics: index' });
    expect(scopeProblem({ controller: 'traps', action: 'scan' })?.field).toBe('action');
    // a v3 trap target's passphrases (issue 24)
    expect(scopeProblem({ controller: 'traps', action: 'get_password' })).toBeUndefined();
    expect(scopeProblem({ controller: 'bogus', action: 'bogus' })?.message).not.toContain('did you mean');
    expect(scopeProblem({ controller: '*', action: 'get_pasword' })?.message).toMatch(
      /^must be \* or an action of some controller: .*; did you mean 'get_password'\?$/,
    );
  });
});
