import { useEffect, useState } from 'react';
import { api, describeError } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { plural } from '../../ui/format.js';
import type { PoolRow } from './pool-form.js';
import { ErrorAlert } from '../../ui/error-alert.js';

/** Shares the picker lists at once (the core's largest page); the filter narrows past that. */
const listed = 100;

interface PoolMembersProps {
  pool: PoolRow;
  nasNames: ReadonlyMap<number, string>;
  poolNames: ReadonlyMap<number, string>;
  onSaved: () => void;
  onClose: () => void;
}

/**
 * Which shares a pool holds: a checkbox per share (with its NAS, and the pool it is in now),
 * saved as the pool's whole membership through pools.update's `nas_share_ids`. A share already
 * in another pool is refused by the core (conflict); its message is shown as it comes.
 */
export function PoolMembers({ pool, nasNames, poolNames, onSaved, onClose }: PoolMembersProps) {
  const [selected, setSelected] = useState(() => new Set(pool.nas_share_ids));
  const [filter, setFilter] = useState('');
  const [applied, setApplied] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setApplied(filter.trim()), 250);
    return () => clearTimeout(timer);
  }, [filter]);
  // As the shares screen's filter: upper and lower case alike, names in the order people read them.
  const query = { per_page: listed, sort_by: 'name:ci', ...(applied ? { name: `~*%${applied}%` } : {}) };
  const shares = useLoad(() => api.shares.list.query({ query }), JSON.stringify(query));
  const titleId = `members-${pool.id}-title`;

  if (pool.content !== 'nas') {
    return (
      <section className="members" aria-labelledby={titleId}>
        <h2 id={titleId} tabIndex={-1}>
          Shares in pool {pool.name}
        </h2>
        <p>
          Pool {pool.name} holds {pool.content}: only a pool whose content is NAS shares takes shares. Edit the pool and set its content to NAS shares first.
        </p>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </section>
    );
  }

  const toggle = (id: number, on: boolean) => {
    setResult(null);
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  };
  const save = async () => {
    setSaving(true);
    try {
      const saved = await api.pools.update.mutate({ pool: pool.id, body: { nas_share_ids: [...selected].sort((a, b) => a - b) } });
      setResult({ ok: true, text: `Saved: pool ${saved.name} holds ${plural(saved.nas_share_ids.length, 'share')}.` });
      onSaved();
      shares.reload();
    } catch (caught) {
      const { message, fields } = describeError(caught);
      const lines = Object.values(fields).flat();
      // The core names the shares by id: say which listed ones are in another pool, by name.
      const elsewhere = (shares.data?.nas_shares ?? []).flatMap((share) =>
        selected.has(share.id) && share.pool_id !== null && share.pool_id !== pool.id
          ? [`${share.name} (#${share.id}) is in pool ${poolNames.get(share.pool_id) ?? `#${share.pool_id}`}`]
          : [],
      );
      const hint = elsewhere.length > 0 ? ` ${elsewhere.join('; ')}: take it out of that pool first.` : '';
      setResult({ ok: false, text: `${lines.length > 0 ? lines.join('; ') : message}.${hint}` });
    } finally {
      setSaving(false);
    }
  };
  const rows = shares.data?.nas_shares ?? [];
  const total = shares.data?.count ?? 0;
  return (
    <section className="members" aria-labelledby={titleId}>
      <h2 id={titleId} tabIndex={-1}>
        Shares in pool {pool.name}
      </h2>
      <div className="storage-filter">
        <label>
          Find shares by name
          <input type="search" value={filter} onChange={(event) => setFilter(event.target.value)} autoComplete="off" />
        </label>
      </div>
      <fieldset>
        <legend>
          Shares of pool {pool.name} <span className="hint">({plural(selected.size, 'share')} selected)</span>
        </legend>
        <ErrorAlert message={shares.error} />
        {shares.data && rows.length === 0 && (
          <p>{applied ? `No share's name contains "${applied}".` : 'There are no shares yet: create them on the Shares screen.'}</p>
        )}
        {rows.length > 0 && (
          <ul className="member-list">
            {rows.map((share) => {
              const elsewhere = share.pool_id !== null && share.pool_id !== pool.id ? (poolNames.get(share.pool_id) ?? `#${share.pool_id}`) : null;
              return (
                <li key={share.id}>
                  <label className="inline">
                    <input type="checkbox" checked={selected.has(share.id)} onChange={(event) => toggle(share.id, event.target.checked)} />
                    {share.name}
                    <span className="hint">
                      on {nasNames.get(share.nas_id) ?? `NAS #${share.nas_id}`}
                      {elsewhere !== null && ` · in pool ${elsewhere}`}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
        {total > rows.length && (
          <p className="hint">
            Showing {rows.length} of {total} shares: find the others by name.
          </p>
        )}
      </fieldset>
      {result && (
        <p role={result.ok ? 'status' : 'alert'} className={result.ok ? 'notice' : 'error'}>
          {result.text}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={() => void save()} disabled={saving}>
          Save shares
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}
