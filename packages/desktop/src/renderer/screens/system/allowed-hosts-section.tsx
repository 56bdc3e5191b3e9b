import { useRef, useState, type FormEvent } from 'react';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { formProblem, type FormProblem } from '../../ui/form-problem.js';
import { ProblemAlert } from '../../ui/problem-alert.js';
import { entryMessage, hostEntries } from './allowed-host-messages.js';
import { ErrorAlert } from '../../ui/error-alert.js';

const field = 'share_test_allowed_hosts';

/**
 * Where share tests and scans may connect (a server setting of the core, admin only): one host
 * name, address or CIDR block a line; the core checks each entry and its messages name the entry.
 */
export function AllowedHostsSection() {
  const settings = useLoad(() => api.settings.show.query());
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [saved, setSaved] = useState<string[] | null>(null);
  const busy = useRef(false);
  const hosts = saved ?? settings.data?.share_test_allowed_hosts;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy.current) return;
    const entries = hostEntries(String(new FormData(event.currentTarget).get(field) ?? ''));
    busy.current = true;
    try {
      const next = await api.settings.update.mutate({ [field]: entries });
      setProblem(null);
      setSaved(next.share_test_allowed_hosts);
    } catch (caught) {
      const found = formProblem(caught, [field]);
      setProblem({ general: found.general, fields: { [field]: (found.fields[field] ?? []).map((message) => entryMessage(message, entries)) } });
    } finally {
      busy.current = false;
    }
  };

  const messages = problem?.fields[field];
  const invalid = messages !== undefined && messages.length > 0;
  return (
    <section aria-labelledby="allowed-hosts-heading">
      <h2 id="allowed-hosts-heading">Share-test allowed hosts</h2>
      <ErrorAlert message={settings.error} />
      {hosts && (
        <form className="settings-form" aria-labelledby="allowed-hosts-heading" onSubmit={(event) => void submit(event)} noValidate>
          {/* Label, hint and error side by side, so the textarea's name is just "Allowed hosts". */}
          <div className="settings-field">
            <label htmlFor="allowed-hosts">Allowed hosts</label>
            <textarea
              // Shown again from what the core stored once saved (trimmed, blank lines gone).
              key={hosts.join('\n')}
              id="allowed-hosts"
              name={field}
              rows={6}
              defaultValue={hosts.join('\n')}
              spellCheck={false}
              aria-invalid={invalid ? true : undefined}
              aria-describedby={['allowed-hosts-hint', invalid ? 'allowed-hosts-error' : ''].filter(Boolean).join(' ')}
            />
            <span id="allowed-hosts-hint" className="hint">
              One host name, IP address or CIDR block (such as 10.0.0.0/8) a line. Empty: tests and scans may connect to any host.
            </span>
            {invalid && (
              <span id="allowed-hosts-error" className="error">
                {messages.join('; ')}
              </span>
            )}
          </div>
          <ProblemAlert problem={problem} />
          {saved && !problem && (
            <p role="status" className="ok">
              Saved: {saved.length === 0 ? 'tests and scans may connect to any host.' : `${saved.length} allowed ${saved.length === 1 ? 'entry' : 'entries'}.`}
            </p>
          )}
          <div className="actions">
            <button type="submit">Save allowed hosts</button>
          </div>
        </form>
      )}
    </section>
  );
}
