import { api } from '../../trpc-client.js';
import { Field, FormError } from '../../ui/form-field.js';
import { useFormSave } from '../../ui/use-form-save.js';
import type { RestServerStatusView } from './rest-server-summary.js';

/**
 * Turns the embedded REST server on or off and sets where it listens. Saving applies at once;
 * the main process checks the values and answers field errors, shown under their inputs.
 */
export function RestServerForm({ settings, onSaved }: { settings: RestServerStatusView['settings']; onSaved: (status: RestServerStatusView) => void }) {
  const { error, saving, onSubmit } = useFormSave(async (form) => {
    const portText = String(form.get('port') ?? '').trim();
    // An empty or unreadable port is sent as NaN: the main process names the field, no rule is repeated here.
    const body = { enabled: form.get('enabled') === 'on', host: String(form.get('host') ?? '').trim(), port: portText === '' ? Number.NaN : Number(portText) };
    onSaved(await api.restServer.update.mutate(body));
  });
  return (
    <form className="settings-form" aria-label="Embedded REST server settings" onSubmit={onSubmit} noValidate>
      <label className="inline">
        <input type="checkbox" name="enabled" defaultChecked={settings.enabled} />
        Serve the REST API (/api/v2) of this instance
      </label>
      <Field
        form="rest-server"
        name="host"
        label="Host"
        errors={error?.fields}
        defaultValue={settings.host}
        autoComplete="off"
        spellCheck={false}
        hint="127.0.0.1 keeps it on this computer; 0.0.0.0 opens it to your network."
      />
      <Field
        form="rest-server"
        name="port"
        label="Port"
        errors={error?.fields}
        defaultValue={settings.port}
        type="number"
        inputMode="numeric"
        autoComplete="off"
        hint="0 picks any free port."
      />
      <FormError error={error} />
      <div className="actions">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}
