import { useState } from 'react';
import { api, describeError } from '../../trpc-client.js';
import { notifyAlertsChanged } from '../alerts-changed.js';
import { alertSourceLabel } from '../../labels/watch-labels.js';
import { alertResource, type AlertRow } from './alert-text.js';

/**
 * Dismiss (seen: it leaves the header's count, and still clears by itself), or Undismiss a
 * dismissed one. The badge and the other alert lists read again at once.
 */
export function DismissButton({ alert, onChanged }: { alert: AlertRow; onChanged: (alert: AlertRow) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const dismissed = alert.dismissed_at !== null;
  const verb = dismissed ? 'Undismiss' : 'Dismiss';
  const subject = [alertSourceLabel(alert.source), alertResource(alert)].filter(Boolean).join(': ');
  const toggle = async () => {
    setBusy(true);
    try {
      const updated = await api.alerts.dismiss.mutate({ alert: alert.id, dismissed: !dismissed });
      setError(null);
      onChanged(updated);
      notifyAlertsChanged();
    } catch (caught) {
      setError(describeError(caught).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className={dismissed ? 'secondary small' : 'small'}
        disabled={busy}
        aria-label={`${verb} alert ${subject}`}
        onClick={() => void toggle()}
      >
        {verb}
      </button>
      {error && (
        <span role="alert" className="error row-outcome">
          {error}
        </span>
      )}
    </>
  );
}
