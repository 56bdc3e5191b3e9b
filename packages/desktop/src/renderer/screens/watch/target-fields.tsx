import '../../ui/list.css';
import { useId } from 'react';
import type { FieldErrors } from '../../ui/form-field.js';
import { FieldMessages } from '../../ui/problem-alert.js';
import type { Named, ScheduleNames } from './schedule-names.js';

export type TargetKind = 'shares' | 'pool' | 'nas' | 'all';

/** Which shares a run reaches, as the form holds it: a kind and the choice for each kind. */
export interface TargetState {
  kind: TargetKind;
  shareIds: number[];
  poolId: string;
  nasId: string;
}

/** The body's one target field: the others are left out (an update then clears them). */
export function targetBody(target: TargetState): { nas_share_ids: number[] } | { pool_id: number } | { nas_id: number } | { all_shares: true } {
  switch (target.kind) {
    case 'shares':
      return { nas_share_ids: target.shareIds };
    case 'pool':
      return { pool_id: Number(target.poolId) };
    case 'nas':
      return { nas_id: Number(target.nasId) };
    case 'all':
      return { all_shares: true };
  }
}

/** The core's messages about the target, by the field it names. */
export const targetFields = ['target', 'nas_share_ids', 'pool_id', 'nas_id', 'all_shares'];

const kindLabels: Record<TargetKind, string> = { shares: 'Chosen shares', pool: 'The shares of a pool', nas: 'The shares of a NAS', all: 'All shares' };

function Choice({
  name,
  label,
  options,
  value,
  onChange,
}: {
  name: string;
  label: string;
  options: Named[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {label}
      <select name={name} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Which shares each run tests or scans: chosen ones, a pool's, a NAS's, or all of them (those of a pool or NAS when the run starts). */
export function TargetFields({
  value,
  onChange,
  names,
  errors,
}: {
  value: TargetState;
  onChange: (value: TargetState) => void;
  names: ScheduleNames;
  errors: FieldErrors;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const messages = targetFields.flatMap((field) => errors?.[field] ?? []);
  const set = (change: Partial<TargetState>) => onChange({ ...value, ...change });
  const toggleShare = (shareId: number, on: boolean) =>
    set({ shareIds: on ? [...value.shareIds, shareId] : value.shareIds.filter((other) => other !== shareId) });
  const kinds = (Object.keys(kindLabels) as TargetKind[]).filter((kind) => kind !== 'pool' || names.pools.length > 0);
  return (
    <fieldset className="target-fields" aria-describedby={messages.length > 0 ? errorId : undefined}>
      <legend>Shares</legend>
      <div className="target-kinds" role="radiogroup" aria-label="Which shares">
        {kinds.map((kind) => (
          <label key={kind} className="inline">
            <input type="radio" name="target-kind" value={kind} checked={value.kind === kind} onChange={() => set({ kind })} />
            {kindLabels[kind]}
          </label>
        ))}
      </div>
      {value.kind === 'shares' &&
        (names.shares.length === 0 ? (
          <p className="hint">No shares yet: add one on the Shares screen.</p>
        ) : (
          <fieldset className="target-shares">
            <legend className="visually-hidden">Chosen shares</legend>
            <ul className="member-list">
              {names.shares.map((share) => (
                <li key={share.id}>
                  <label className="inline">
                    <input
                      type="checkbox"
                      name="share"
                      value={share.id}
                      checked={value.shareIds.includes(share.id)}
                      onChange={(event) => toggleShare(share.id, event.target.checked)}
                    />
                    {share.name}
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        ))}
      {value.kind === 'pool' && <Choice name="pool" label="Pool" options={names.pools} value={value.poolId} onChange={(poolId) => set({ poolId })} />}
      {value.kind === 'nas' && <Choice name="nas" label="NAS" options={names.nas} value={value.nasId} onChange={(nasId) => set({ nasId })} />}
      {value.kind === 'all' && <p className="hint">Every share, those added later too.</p>}
      <FieldMessages id={errorId} messages={messages.length > 0 ? messages : undefined} />
    </fieldset>
  );
}
