import { humanBytes, shortTime } from '../../ui/format.js';
import { capacityLevel, fullInText, shareThresholds, type CapacityThresholds } from '../../ui/capacity-level.js';
import type { ShareRow } from './share-form.js';

/**
 * A share's capacity in its row: a bar of used / size coloured at the alert thresholds, the free
 * space in words, and "full in N days" when the forecast knows. The bar is a picture of the
 * words beside it, so it is hidden from screen readers, which read the words.
 */
export function CapacityBar({ share, source }: { share: ShareRow; source: CapacityThresholds }) {
  if (share.capacity_bytes === null || share.free_bytes === null || share.used_percent === null) {
    return <span className="hint">not read yet</span>;
  }
  const thresholds = shareThresholds(share, source);
  const level = capacityLevel(share.used_percent, thresholds);
  const full = fullInText(share.days_until_full);
  const used = Math.min(100, Math.max(0, share.used_percent));
  return (
    <div
      className="capacity"
      data-level={level}
      title={`${humanBytes(share.capacity_bytes - share.free_bytes)} used of ${humanBytes(share.capacity_bytes)}, read ${shortTime(share.capacity_checked_at)}; alerts from ${thresholds.warning} % and ${thresholds.critical} %`}
    >
      <div className="capacity-track" aria-hidden="true">
        <div className="capacity-fill" style={{ inlineSize: `${used}%` }} />
      </div>
      <span className="capacity-text">
        {share.used_percent.toLocaleString('en')} % used, {humanBytes(share.free_bytes)} free of {humanBytes(share.capacity_bytes)}
        {level !== 'ok' && <span className="visually-hidden"> (past the {level} threshold)</span>}
      </span>
      {full && <span className="capacity-full">{full}</span>}
    </div>
  );
}
