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

type AlertSetting = Outputs['alertSettings']['list']['alert_settings'][number];

const levelChoices = Object.entries(severityNames).map(([level, name]) => [Number(level), `${name} (${level})`] as const);

/** One source's row: its switch and its level, each saved as it changes; what was saved, or why not, under them. */
function SettingRow({ setting, onSaved }: { setting: AlertSetting; onSaved: (setting: AlertSetting) => void }) {
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // Shown as chosen at once; back to what is saved if the core refuses it.
  const [shown, setShown] = useState(setting);
  const label = alertSourceLabel(setting.source);
  const save = async (body: { enabled?: boolean; level?: number }) => {
    setShown({ ...shown, ...body });
    setBusy(true);
    try {
      const saved = await api.alertSettings.update.mutate({ source: setting.source, body });
      onSaved(saved);
      setShown(saved);
      setOutcome({ ok: true, text: `Saved: ${label} ${saved.enabled ? `on, at ${severityNames[saved.level as keyof typeof severityNames]}` : 'off'}.` });
    } catch (caught) {
      setShown(setting);
      setOutcome({ ok: false, text: describeError(caught).message });
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
        Turning a source off clears its open alerts.
      </p>
      <ErrorAlert message={settings.error} />
      {rows.length > 0 && (
        <table className="alert-settings-table">
          <caption className="visually-hidden">Alert sources</caption>
          <ColumnHeads columns={[{ label: 'Source' }, { label: 'Raised when' }, { label: 'Enabled' }, { label: 'Level' }]} />
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
