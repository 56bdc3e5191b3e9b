import { explicitOnlyActions, scopeCatalogue } from '@dms/core';

export interface ScopeChoice {
  controller: string;
  action: string;
}

export interface ScopePreset {
  id: 'read-only' | 'operator' | 'full';
  label: string;
  description: string;
  scopes: ScopeChoice[];
}

const readActions: readonly string[] = ['index', 'show'];
const explicitOnly: readonly string[] = explicitOnlyActions;

/** Every pair of the core's scope catalogue that `keep` accepts, in the catalogue's order. */
function pairsWhere(keep: (controller: string, action: string) => boolean): ScopeChoice[] {
  return scopeCatalogue.flatMap(({ controller, actions }) =>
    actions.filter((action: string) => keep(controller, action)).map((action: string) => ({ controller, action })),
  );
}

const isRead = (_controller: string, action: string) => readActions.includes(action);

/**
 * Starting points for a key's scopes, built from the core's catalogue so a new controller or
 * action joins them by itself. They fill the picker's rows; each row stays editable.
 */
export const scopePresets: readonly ScopePreset[] = [
  {
    id: 'read-only',
    label: 'Read-only',
    description: 'index and show of every controller',
    scopes: pairsWhere(isRead),
  },
  {
    id: 'operator',
    label: 'Operator',
    description: 'read-only, and test and scan shares',
    scopes: pairsWhere((controller, action) => isRead(controller, action) || (controller === 'nas_shares' && (action === 'test' || action === 'scan'))),
  },
  {
    id: 'full',
    label: 'Full without passwords',
    description: `every action of every controller but ${explicitOnly.join(', ')}`,
    scopes: pairsWhere((_controller, action) => !explicitOnly.includes(action)),
  },
];
