import { useState } from 'react';
import type { Outputs } from '../../trpc-client.js';
import { FieldMessages } from '../../ui/problem-alert.js';
import { scopePresets, type ScopeChoice } from './scope-presets.js';

export type { ScopeChoice } from './scope-presets.js';

type Catalogue = Outputs['apiKeys']['scopeCatalogue'];

interface ScopePickerProps {
  catalogue: Catalogue;
  scopes: ScopeChoice[];
  onChange: (scopes: ScopeChoice[]) => void;
  messages: string[] | undefined;
}

const anything = '*';

/** The actions a controller offers; every action of any controller under `*`. */
function actionsOf(catalogue: Catalogue, controller: string): string[] {
  const entries = controller === anything ? catalogue.controllers : catalogue.controllers.filter((entry) => entry.controller === controller);
  return [...new Set(entries.flatMap((entry) => entry.actions))];
}

/** The scope a new row starts with: the first controller's first action. */
export function firstScope(catalogue: Catalogue): ScopeChoice {
  const first = catalogue.controllers[0];
  return { controller: first?.controller ?? anything, action: first?.actions[0] ?? anything };
}

/** A key's scopes as controller / action pairs, one row each, `*` for any. */
export function ScopePicker({ catalogue, scopes, onChange, messages }: ScopePickerProps) {
  const set = (index: number, scope: ScopeChoice) => onChange(scopes.map((current, at) => (at === index ? scope : current)));
  const errorId = 'api-key-scopes-error';
  const [filled, setFilled] = useState<string | null>(null);
  return (
    <fieldset className="scope-picker" aria-describedby={['api-key-scopes-hint', messages ? errorId : ''].filter(Boolean).join(' ')}>
      <legend>Scopes</legend>
      <p id="api-key-scopes-hint" className="hint">
        What the key may do, as controller / action. * allows every controller or every action; a * action does not include{' '}
        {catalogue.explicitOnlyActions.join(', ')}, which must be picked on its own.
      </p>
      <div className="scope-presets" role="group" aria-label="Presets" aria-describedby="api-key-presets-hint">
        <span id="api-key-presets-hint" className="hint">
          Fill the scopes from a preset, then edit them:
        </span>
        {scopePresets.map((preset) => (
          <button
            key={preset.id}
            type="button"
            className="secondary"
            title={preset.description}
            aria-label={`${preset.label} preset: ${preset.description}`}
            onClick={() => {
              onChange(preset.scopes.map((scope) => ({ ...scope })));
              setFilled(`${preset.label}: ${preset.scopes.length} scopes filled in below (${preset.description}).`);
            }}
          >
            {preset.label}
          </button>
        ))}
      </div>
      <p role="status" className="hint">
        {filled}
      </p>
      {scopes.map((scope, index) => {
        const actions = actionsOf(catalogue, scope.controller);
        const name = `Scope ${index + 1}`;
        return (
          <div key={index} className="scope-row" role="group" aria-label={name}>
            <label>
              Controller
              <select
                value={scope.controller}
                aria-invalid={messages && index === 0 ? true : undefined}
                onChange={(event) => {
                  const controller = event.target.value;
                  set(index, { controller, action: actionsOf(catalogue, controller).includes(scope.action) ? scope.action : anything });
                }}
              >
                <option value={anything}>* (any controller)</option>
                {catalogue.controllers.map((entry) => (
                  <option key={entry.controller} value={entry.controller}>
                    {entry.controller}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Action
              <select value={scope.action} onChange={(event) => set(index, { ...scope, action: event.target.value })}>
                <option value={anything}>* (any action)</option>
                {actions.map((action) => (
                  <option key={action} value={action}>
                    {action}
                  </option>
                ))}
              </select>
            </label>
            {scopes.length > 1 && (
              <button
                type="button"
                className="secondary"
                aria-label={`Remove scope ${index + 1}`}
                onClick={() => onChange(scopes.filter((_, at) => at !== index))}
              >
                Remove
              </button>
            )}
          </div>
        );
      })}
      <button type="button" className="secondary" onClick={() => onChange([...scopes, firstScope(catalogue)])}>
        Add another scope
      </button>
      <FieldMessages id={errorId} messages={messages} />
    </fieldset>
  );
}
