import type { ShareHealth } from '@dms/core';
import { optionsOf } from '../../labels/storage-labels.js';
import { shareHealthHints, shareHealthLabels } from '../../labels/watch-labels.js';

/**
 * Every share's health at a glance: how many passed their latest test, failed it, or were never
 * tested; each count opens the Shares screen filtered to those shares.
 */
export function ShareHealthCounts({ counts }: { counts: Record<ShareHealth, number> | undefined }) {
  return (
    <section aria-labelledby="health-heading">
      <h2 id="health-heading">Share health</h2>
      <ul className="cards health-cards" aria-labelledby="health-heading">
        {optionsOf(shareHealthLabels).map(([health, label]) => (
          <li key={health} data-health={health} data-none={counts?.[health] === 0 ? 'true' : undefined}>
            <a href={`#/shares?health=${health}`}>
              <span className="count">{counts ? counts[health].toLocaleString('en') : '…'}</span> {label}
              <span className="card-hint">{shareHealthHints[health]}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
