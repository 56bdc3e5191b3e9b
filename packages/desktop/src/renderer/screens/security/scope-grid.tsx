import { useId } from 'react';
import type { Outputs } from '../../trpc-client.js';
import { FieldMessages } from '../../ui/problem-alert.js';
import { presetOf, scopeKey, scopePresets, type ScopeChoice } from './scope-presets.js';

export type { ScopeChoice } from './scope-presets.js';

type Catalogue = Outputs['apiKeys']['scopeCatalogue'];

interface ScopeGridProps {
  catalogue: Catalogue;
  scopes: ScopeChoice[];
  onChange: (scopes: ScopeChoice[]) => void;
  messages: string[] | undefined;
}

const anything = '*';

/** Every action some controller offers, in the catalogue's order of first appearance. */
function actionColumns(catalogue: Catalogue): string[] {
  return [...new Set(catalogue.controllers.flatMap((entry) => entry.actions as readonly string[]))];
}

/**
 * A key's scopes as a grid: a row per controller (and `*`, every controller), a column per
 * action (and `*`, every action but the explicit-only ones), a box where the pair exists. The
 * presets tick their boxes in one click; the grid then says which preset it holds, until a box
 * changes.
 */
export function ScopeGrid({ catalogue, scopes, onChange, messages }: ScopeGridProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const actions = [...actionColumns(catalogue), anything];
  const rows: Array<{ controller: string; actions: readonly string[] }> = [
    ...catalogue.controllers.map((entry) => ({ controller: entry.controller, actions: [...entry.actions, anything] })),
    { controller: anything, actions },
  ];
  const picked = new Set(scopes.map(scopeKey));
  const preset = presetOf(scopes);
  // Kept in the catalogue's order, so the key's list reads as the grid does.
  const order = rows.flatMap((row) => row.actions.map((action) => `${row.controller}/${action}`));
  const toggle = (scope: ScopeChoice, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(scopeKey(scope));
    else next.delete(scopeKey(scope));
    onChange(
      order.filter((key) => next.has(key)).map((key) => ({ controller: key.slice(0, key.lastIndexOf('/')), action: key.slice(key.lastIndexOf('/') + 1) })),
    );
  };
  return (
    <fieldset className="scope-picker" aria-describedby={[hintId, messages ? errorId : ''].filter(Boolean).join(' ')}>
      <legend>Scopes</legend>
      <p id={hintId} className="hint">
        What the key may do: tick a controller’s actions. * allows every controller or every action; a * action does not include{' '}
        {catalogue.explicitOnlyActions.join(', ')}, which must be ticked on its own.
      </p>
      <div className="scope-presets" role="group" aria-label="Presets">
        {scopePresets.map((entry) => (
          <button
            key={entry.id}
            type="button"
            className="secondary"
            aria-pressed={preset?.id === entry.id}
            title={entry.description}
            aria-label={`${entry.label} preset: ${entry.description}`}
            onClick={() => onChange(entry.scopes.map((scope) => ({ ...scope })))}
          >
            {entry.label}
          </button>
        ))}
        <button type="button" className="secondary" disabled={scopes.length === 0} onClick={() => onChange([])}>
          Clear
        </button>
      </div>
      <p role="status" className="scope-summary">
        {scopes.length === 0
          ? 'No scope ticked yet.'
          : `${preset ? `${preset.label}: ` : ''}${scopes.length} ${scopes.length === 1 ? 'scope' : 'scopes'} ticked.`}
      </p>
      <div className="scope-grid-wrap">
        <table className="scope-grid" aria-label="Scopes by controller and action">
          <thead>
            <tr>
              <th scope="col">Controller</th>
              {actions.map((action) => (
                <th key={action} scope="col">
                  {action}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.controller}>
                <th scope="row">{row.controller === anything ? '* (every controller)' : row.controller}</th>
                {actions.map((action) => (
                  <td key={action}>
                    {row.actions.includes(action) && (
                      <input
                        type="checkbox"
                        aria-label={`${row.controller} / ${action}`}
                        aria-invalid={messages ? true : undefined}
                        checked={picked.has(`${row.controller}/${action}`)}
                        onChange={(event) => toggle({ controller: row.controller, action }, event.target.checked)}
                      />
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <FieldMessages id={errorId} messages={messages} />
    </fieldset>
  );
}
