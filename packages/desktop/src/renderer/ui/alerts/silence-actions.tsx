import { useState } from 'react';
import { api, describeError } from '../../trpc-client.js';
import { notifyAlertsChanged } from '../alerts-changed.js';
import { alertSourceLabel } from '../../labels/watch-labels.js';
import { alertResource, type AlertRow } from './alert-text.js';

const hourMs = 3_600_000;

/** The console's three ways to silence one alert (docs/decisions/171-silences.md): a fixed end, or until it clears. */
const choices = [
  { label: '1 hour', end: () => ({ ends_at: new Date(Date.now() + hourMs).toISOString() }) },
  { label: '1 day', end: () => ({ ends_at: new Date(Date.now() + 24 * hourMs).toISOString() }) },
  { label: 'Until cleared', end: () => ({ until_cleared: true }) },
] as const;

/** A silence matching this alert: its source, and its resource when it has one. */
function matchersOf(alert: AlertRow) {
  const resource = alert.resource;
  return {
    source: alert.source,
    ...(resource ? { resource_type: resource.type } : {}),
    ...(resource?.id != null ? { resource_id: resource.id } : {}),
  };
}

/**
 * Silence an open alert for 1 hour, 1 day or until it clears: it stays listed, but nothing is
 * sent about it meanwhile. Silence opens the three choices; the core refuses a non-admin.
 */
export function SilenceActions({ alert, onChanged }: { alert: AlertRow; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const subject = [alertSourceLabel(alert.source), alertResource(alert)].filter(Boolean).join(': ');
  if (alert.cleared_at !== null || alert.silenced) return null;
  const silence = async (choice: (typeof choices)[number]) => {
    setBusy(true);
    try {
      await api.silences.create.mutate({ matchers: matchersOf(alert), ...choice.end(), reason: `Silenced from the console: ${subject}` });
      setError(null);
      setOpen(false);
      onChanged();
      notifyAlertsChanged();
    } catch (caught) {
      setError(describeError(caught).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="secondary small" aria-expanded={open} aria-label={`Silence alert ${subject}`} onClick={() => setOpen(!open)}>
        Silence
      </button>
      {open && (
        <span role="group" aria-label={`Silence ${subject} for`} className="silence-choices">
          {choices.map((choice) => (
            <button key={choice.label} type="button" className="secondary small" disabled={busy} onClick={() => void silence(choice)}>
              {choice.label}
            </button>
          ))}
        </span>
      )}
      {error && (
        <span role="alert" className="error row-outcome">
          {error}
        </span>
      )}
    </>
  );
}
