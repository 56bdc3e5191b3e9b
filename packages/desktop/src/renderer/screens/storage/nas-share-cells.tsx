import type { Outputs } from '../../trpc-client.js';
import { humanBytes, plural } from '../../ui/format.js';
import { shareHealthLabels } from '../../labels/watch-labels.js';

export type NasShareHealth = Outputs['nas']['shareHealth'][number];
export type NasCapacity = Outputs['statistics']['capacity']['nas'][number];

const healths = ['ok', 'unreachable', 'unknown'] as const;

/**
 * A NAS row's shares: how many (linked to them on the Shares screen), their health, and the
 * space of the file systems they lie on as their latest test or scan read it.
 */
export function NasShareCells({ nasId, health, capacity }: { nasId: number; health: NasShareHealth | undefined; capacity: NasCapacity | undefined }) {
  const total = health ? health.ok + health.unreachable + health.unknown : undefined;
  return (
    <>
      <td className="number">{total === undefined ? '…' : total === 0 ? '0' : <a href={`#/shares?nas_id=${nasId}`}>{plural(total, 'share')}</a>}</td>
      <td>
        {health && total
          ? healths
              .filter((key) => health[key] > 0)
              .map((key, index) => (
                <span key={key}>
                  {index > 0 ? ', ' : ''}
                  <span className="health" data-health={key}>
                    {health[key].toLocaleString('en')} {shareHealthLabels[key]}
                  </span>
                </span>
              ))
          : ''}
      </td>
      <td>
        {capacity && capacity.shares_with_capacity > 0 && capacity.used_percent !== null ? (
          `${capacity.used_percent.toLocaleString('en')} % used, ${humanBytes(capacity.free_bytes)} free of ${humanBytes(capacity.capacity_bytes)}`
        ) : (
          <span className="hint">{total ? 'not read yet' : ''}</span>
        )}
      </td>
    </>
  );
}
