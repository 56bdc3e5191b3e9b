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
 * action joins them by itself (Read-only reads everything that can be read: the users and the
 * audit log too, which a key also needs an admin owner for). One click ticks their boxes in the
 * grid; each box stays editable.
 */
export const scopePresets: readonly ScopePreset[] = [
  {
    id: 'read-only',
    label: 'Read-only',
    description: 'index and show of every controller, users and the audit log included',
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

/** `nas/index`: one pair as the scope language writes it. */
export function scopeKey(scope: ScopeChoice): string {
  return `${scope.controller}/${scope.action}`;
}

/** The preset whose pairs are exactly these (in any order), if one is. */
export function presetOf(scopes: readonly ScopeChoice[]): ScopePreset | undefined {
  const picked = new Set(scopes.map(scopeKey));
  return scopePresets.find((preset) => preset.scopes.length === picked.size && preset.scopes.every((scope) => picked.has(scopeKey(scope))));
}

/**
 * A key's scopes in a few words: its preset's name when they are exactly a preset's, else each
 * controller once with its actions ("nas_shares: index, test; traps: *").
 */
export function scopesText(scopes: readonly ScopeChoice[]): string {
  const preset = presetOf(scopes);
  if (preset) return preset.label;
  const byController = new Map<string, string[]>();
  for (const { controller, action } of scopes) byController.set(controller, [...(byController.get(controller) ?? []), action]);
  return [...byController].map(([controller, actions]) => `${controller}: ${actions.join(', ')}`).join('; ');
}
