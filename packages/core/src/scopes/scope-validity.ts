import type { Scope } from './scope.js';
import { closestName } from '../validation/closest-name.js';
import { scopeCatalogue } from './scope-catalogue.js';

/** What is wrong with a scope, on which of its two fields, in a sentence that starts with the rule. */
export interface ScopeProblem {
  field: 'controller' | 'action';
  message: string;
}

const controllers: readonly string[] = scopeCatalogue.map((entry) => entry.controller);
const actionsOf: ReadonlyMap<string, readonly string[]> = new Map(scopeCatalogue.map((entry) => [entry.controller, entry.actions]));
// Under a `*` controller, an action of any controller: `* / index`, `* / get_password`.
const everyAction: readonly string[] = [...new Set(scopeCatalogue.flatMap((entry) => entry.actions))];

function didYouMean(typed: string, known: readonly string[]): string {
  const guess = closestName(typed, known);
  return guess === undefined ? '' : `; did you mean '${guess}'?`;
}

/**
 * A scope that names a controller or action no check asks for would give a key that can do
 * nothing (`nas_share / index`, `nas_shares / indx`): refused, naming what the scope catalogue
 * allows. `*` stays valid in either field. Undefined when the scope is one a check can match.
 */
export function scopeProblem(scope: Scope): ScopeProblem | undefined {
  const { controller, action } = scope;
  if (controller !== '*' && !actionsOf.has(controller)) {
    return { field: 'controller', message: `must be * or one of ${controllers.join(', ')}${didYouMean(controller, controllers)}` };
  }
  if (action === '*') return undefined;
  const actions = controller === '*' ? everyAction : actionsOf.get(controller)!;
  if (actions.includes(action)) return undefined;
  const whose = controller === '*' ? 'an action of some controller' : `an action of ${controller}`;
  return { field: 'action', message: `must be * or ${whose}: ${actions.join(', ')}${didYouMean(action, actions)}` };
}
