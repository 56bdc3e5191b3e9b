import { useId, useState } from 'react';
import type { DomainErrorCode, JobKind } from '@dms/core';
import { api, describeError, type Outputs } from '../../trpc-client.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { plural } from '../../ui/format.js';
import { selectedCount, selectionInput, type ShareSelection } from './share-selection.js';

type BulkStart = Outputs['shares']['bulk']['start'];
type BulkOutcome = Pick<BulkStart, 'accepted' | 'refused'>;

/** A refusal's code as REST answers it and what it means here, so "429" and "queue full" read alike. */
const refusalLabels: Partial<Record<DomainErrorCode, string>> = {
  rate_limited: '429, your own bound of unfinished jobs',
  unavailable: '503, the job queue is full',
  validation: '422, not allowed',
  forbidden: '403, not allowed for you',
  not_found: '404, no longer there',
  conflict: '409, conflict',
};

/** "12 selected shares", "All 1,240 matching shares selected", or "1,238 selected shares (all matching but 2)". */
function selectionText(selection: ShareSelection, selected: number): string {
  if (selected === 0) return 'No share selected';
  if (selection.kind === 'ids') return plural(selected, 'selected share');
  if (selection.except.size === 0) return `All ${plural(selected, 'matching share')} selected`;
  return `${plural(selected, 'selected share')} (all matching but ${selection.except.size.toLocaleString('en')})`;
}

/** What the last bulk action did, in words: "Scan: 32 accepted, 968 refused", with the refusals by reason. */
interface Summary {
  title: string;
  refused: BulkOutcome['refused'];
}

interface ShareBulkBarProps {
  selection: ShareSelection;
  /** How many shares match the filter (all pages). */
  count: number;
  /** The ids on the page shown, to offer "all matching" once the whole page is ticked. */
  pageIds: number[];
  filter: Record<string, string>;
  pools: Array<{ id: number; name: string }>;
  onSelectAllMatching: () => void;
  onClear: () => void;
  /** After an action that changed shares (deleted, pooled, jobs queued): the list reloads. */
  onDone: () => void;
  /** The jobs a bulk Test or Scan queued, by share: their rows follow them to the end. */
  onJobsStarted: (kind: JobKind, jobs: BulkStart['jobs']) => void;
}

/**
 * Acts on the ticked shares, or on all those matching the filter: Test and Scan queue one job
 * per share through the core's ordinary calls (each under the job limits), Delete asks first and
 * names the count, Put into pool adds them to a pool's members. Each ends with a summary of
 * what was accepted and what was refused, by reason.
 */
export function ShareBulkBar({ selection, count, pageIds, filter, pools, onSelectAllMatching, onClear, onDone, onJobsStarted }: ShareBulkBarProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [poolId, setPoolId] = useState('');
  const poolField = useId();
  const selected = selectedCount(selection, count);
  const input = selectionInput(selection, filter);
  const shares = plural(selected, 'selected share');
  const wholePage = selection.kind === 'ids' && pageIds.length > 0 && pageIds.every((id) => selection.ids.has(id));

  const run = async (what: string, action: () => Promise<Summary>) => {
    setBusy(`${what} ${shares}…`);
    setSummary(null);
    setError(null);
    try {
      setSummary(await action());
      onDone();
    } catch (caught) {
      setError(describeError(caught).message);
    } finally {
      setBusy(null);
    }
  };
  const outcome = (verb: string, result: BulkOutcome): Summary => {
    const refused = result.refused.reduce((sum, group) => sum + group.shareIds.length, 0);
    return { title: `${verb}: ${result.accepted.toLocaleString('en')} accepted, ${refused.toLocaleString('en')} refused`, refused: result.refused };
  };
  const start = (kind: JobKind) =>
    run(kind === 'share_test' ? 'Starting tests of' : 'Starting scans of', async () => {
      const result = await api.shares.bulk.start.mutate({ selection: input, kind });
      onJobsStarted(kind, result.jobs);
      return outcome(kind === 'share_test' ? 'Test' : 'Scan', result);
    });
  const pool = pools.find((item) => String(item.id) === poolId);
  const disabled = selected === 0 || busy !== null;

  return (
    <section className="bulk-bar" aria-label="Selected shares">
      <p className="bulk-count">
        <strong>{selectionText(selection, selected)}</strong>
        {wholePage && count > pageIds.length && (
          <button type="button" className="link" onClick={onSelectAllMatching}>
            Select all {count.toLocaleString('en')} matching shares
          </button>
        )}
        {selected > 0 && (
          <button type="button" className="link" onClick={onClear}>
            Clear selection
          </button>
        )}
      </p>
      <div className="row-actions">
        <button type="button" disabled={disabled} aria-label={`Test ${shares}`} onClick={() => void start('share_test')}>
          Test
        </button>
        <button type="button" disabled={disabled} aria-label={`Scan ${shares}`} onClick={() => void start('share_scan')}>
          Scan
        </button>
        {selected > 0 && busy === null && (
          <ConfirmButton
            label="Delete"
            accessibleLabel={`Delete ${shares}`}
            question={`Delete ${plural(selected, 'share')}? This cannot be undone; their finished jobs stay in the overview.`}
            onConfirm={() =>
              run('Deleting', async () => {
                const result = await api.shares.bulk.delete.mutate({ selection: input });
                onClear();
                return outcome('Delete', result);
              })
            }
          />
        )}
        <span className="bulk-pool">
          <label htmlFor={poolField}>Pool</label>
          <select id={poolField} value={poolId} onChange={(event) => setPoolId(event.target.value)} disabled={pools.length === 0}>
            <option value="">{pools.length === 0 ? 'No pool yet' : 'Choose a pool'}</option>
            {pools.map((item) => (
              <option key={item.id} value={String(item.id)}>
                {item.name}
              </option>
            ))}
          </select>
        </span>
        <button
          type="button"
          className="secondary"
          disabled={disabled || !pool}
          aria-label={pool ? `Put into pool ${pool.name}: ${shares}` : 'Put into pool (choose a pool first)'}
          onClick={() =>
            pool &&
            void run('Adding', async () => {
              const result = await api.shares.bulk.addToPool.mutate({ selection: input, pool: pool.id });
              return {
                title: `Pool ${result.pool}: ${plural(result.added, 'share')} added, ${result.already.toLocaleString('en')} already in it`,
                refused: [],
              };
            })
          }
        >
          Put into pool
        </button>
      </div>
      <div role="status" className="bulk-summary">
        {busy && <p>{busy}</p>}
        {summary && (
          <>
            <p>
              <strong>{summary.title}</strong>
            </p>
            {summary.refused.length > 0 && (
              <ul aria-label="Refused, by reason">
                {summary.refused.map((group) => (
                  <li key={group.code}>
                    {plural(group.shareIds.length, 'share')} refused ({refusalLabels[group.code] ?? group.code}): {group.message}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      <ErrorAlert message={error} />
    </section>
  );
}
