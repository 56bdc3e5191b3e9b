import { useState, type FormEvent } from 'react';

/** What the hold fields send: raise_after_seconds null is "automatic" (docs/decisions/172-alert-damping.md). */
export interface AlertHolds {
  raise_after_seconds: number | null;
  clear_after_seconds: number;
}

/** The core's words for the fields, as the admin sees them (docs/decisions/150-console-scopes-grid-snmp-roots.md: labels in errors). */
export function withHoldLabels(text: string): string {
  return text.replaceAll('raise_after_seconds', 'Raise after (seconds)').replaceAll('clear_after_seconds', 'Clear after (seconds)');
}

/** A field's text as the core takes it: empty is null (raise: automatic); anything else a number, refused by the core if out of bounds. */
const secondsOf = (text: string): number | null => (text.trim() === '' ? null : Number(text));

/**
 * A source's flap damping: how long its condition must last before its alert is raised, and be
 * gone before it clears. Saved together with the row's button; the core says what it refuses.
 */
export function AlertHoldFields({ label, holds, busy, onSave }: { label: string; holds: AlertHolds; busy: boolean; onSave: (holds: AlertHolds) => void }) {
  const [raise, setRaise] = useState(holds.raise_after_seconds === null ? '' : String(holds.raise_after_seconds));
  const [clear, setClear] = useState(String(holds.clear_after_seconds));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave({ raise_after_seconds: secondsOf(raise), clear_after_seconds: secondsOf(clear) ?? 0 });
  };
  return (
    <form className="alert-holds" onSubmit={submit} aria-label={`Damping of ${label} alerts`} noValidate>
      <label>
        <span>
          Raise after<span className="visually-hidden"> how many seconds, for {label} alerts</span>
        </span>
        <input
          type="number"
          inputMode="numeric"
          min={0}
          max={86400}
          step={1}
          value={raise}
          placeholder="automatic"
          onChange={(event) => setRaise(event.target.value)}
        />
      </label>
      <label>
        <span>
          Clear after<span className="visually-hidden"> how many seconds, for {label} alerts</span>
        </span>
        <input type="number" inputMode="numeric" min={0} max={86400} step={1} value={clear} onChange={(event) => setClear(event.target.value)} />
      </label>
      <button type="submit" disabled={busy}>
        Save<span className="visually-hidden"> damping of {label} alerts</span>
      </button>
    </form>
  );
}
