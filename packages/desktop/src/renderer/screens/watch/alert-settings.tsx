import { useState } from 'react';
import { api, describeError, type Outputs } from '../../trpc-client.js';
import { useRefusableLoad } from '../../ui/use-refusable-load.js';
import { AdminOnly } from '../../ui/admin-only.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { severityNames } from '../../labels/snmp-choices.js';
import { alertSourceLabel } from '../../labels/watch-labels.js';
import '../../ui/admin.css';
import './watch.css';
import { ColumnHeads } from '../../ui/column-heads.js';
import { AlertHoldFields, withHoldLabels } from './alert-holds.js';

type AlertSetting = Outputs['alertSettings']['list']['alert_settings'][number];

const levelChoices = Object.entries(severityNames).map(([level, name]) => [Number(level), `${name} (${level})`] as const);

/** Seconds as words, for what was saved. */
const secondsText = (seconds: number) => `${seconds} s`;

/** One source's row: its switch and its level, each saved as it changes, and its damping, saved by its button; what was saved, or why not, under them. */
function SettingRow({ setting, onSaved }: { setting: AlertSetting; onSaved: (setting: AlertSetting) => void }) {
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // Shown as chosen at once; back to what is saved if the core refuses it.
  const [shown, setShown] = useState(setting);
  const label = alertSourceLabel(setting.source);
  const save = async (body: { enabled?: boolean; level?: number; raise_after_seconds?: number | null; clear_after_seconds?: number }) => {
    const holdsOnly = body.enabled === undefined && body.level === undefined;
    if (!holdsOnly) setShown({ ...shown, ...body });
    setBusy(true);
    try {
      const saved = await api.alertSettings.update.mutate({ source: setting.source, body });
      onSaved(saved);
      setShown(saved);
      const raise = saved.raise_after_seconds === null ? 'the automatic hold' : secondsText(saved.raise_after_seconds);
      setOutcome({
        ok: true,
        text: holdsOnly
          ? `Saved: ${label} raised after ${raise}, cleared after ${secondsText(saved.clear_after_seconds)}.`
          : `Saved: ${label} ${saved.enabled ? `on, at ${severityNames[saved.level as keyof typeof severityNames]}` : 'off'}.`,
      });
    } catch (caught) {
      setShown(setting);
      setOutcome({ ok: false, text: withHoldLabels(describeError(caught).message) });
    } finally {
      setBusy(false);
    }
  };
  const descriptionId = `alert-setting-${setting.source}-description`;
  return (
    <tr>
      <th scope="row">{label}</th>
      <td id={descriptionId}>{setting.description}</td>
      <td>
        <label className="inline">
          <input
            type="checkbox"
            checked={shown.enabled}
            disabled={busy}
            aria-describedby={descriptionId}
            onChange={(event) => void save({ enabled: event.target.checked })}
          />
          <span>
            Raise<span className="visually-hidden"> {label} alerts</span>
          </span>
        </label>
      </td>
      <td>
        <label>
          <span className="visually-hidden">Level of {label} alerts</span>
          <select value={shown.level} disabled={busy} onChange={(event) => void save({ level: Number(event.target.value) })}>
            {levelChoices.map(([level, text]) => (
              <option key={level} value={level}>
                {text}
              </option>
            ))}
          </select>
        </label>
      </td>
      <td>
        <AlertHoldFields label={label} holds={setting} busy={busy} onSave={(holds) => void save(holds)} />
        {outcome && (
          <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? 'row-outcome ok' : 'row-outcome error'}>
            {outcome.text}
          </p>
        )}
      </td>
    </tr>
  );
}

/**
 * Per alert source, as TrueNAS's Alert Settings: whether it raises alerts, and at which level
 * (1 info … 5 critical, as the traps they send). Admin-only; turning a source off clears its
 * open alerts.
 */
export function AlertSettingsScreen() {
  const settings = useRefusableLoad(() => api.alertSettings.list.query());
  const [saved, setSaved] = useState<Record<string, AlertSetting>>({});
  if (settings.refusal) return <AdminOnly what="change alert settings" refusal={settings.refusal} />;
  const rows = (settings.data?.alert_settings ?? []).map((setting) => saved[setting.source] ?? setting);
  return (
    <>
      <p className="hint">
        Each source raises an alert when its condition starts and clears it when it ends; its level decides which trap targets hear of it (their severity band).
        Turning a source off clears its open alerts. A flapping condition is damped: raised only once it has lasted “Raise after” seconds (empty: automatic, 0
        except 300 for a share tested by a schedule running more often than every 5 minutes), cleared only once it has been gone “Clear after” seconds.
      </p>
      <ErrorAlert message={settings.error} />
      {rows.length > 0 && (
        <table className="alert-settings-table">
          <caption className="visually-hidden">Alert sources</caption>
          <ColumnHeads columns={[{ label: 'Source' }, { label: 'Raised when' }, { label: 'Enabled' }, { label: 'Level' }, { label: 'Damping (seconds)' }]} />
          <tbody>
            {rows.map((setting) => (
              <SettingRow key={setting.source} setting={setting} onSaved={(next) => setSaved((current) => ({ ...current, [next.source]: next }))} />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
