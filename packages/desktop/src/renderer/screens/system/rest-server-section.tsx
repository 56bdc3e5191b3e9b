import { useState } from 'react';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { RestServerForm } from './rest-server-form.js';
import { RestServerStatusLine } from './rest-server-status-line.js';
import type { RestServerStatusView } from './rest-server-summary.js';
import { ErrorAlert } from '../../ui/error-alert.js';

/** The embedded REST server: its state for everyone, its settings for an admin. */
export function RestServerSection({ admin }: { admin: boolean }) {
  const loaded = useLoad(() => api.restServer.status.query());
  const [saved, setSaved] = useState<RestServerStatusView | null>(null);
  const status = saved ?? loaded.data;
  return (
    <section aria-labelledby="rest-server-heading">
      <h2 id="rest-server-heading">Embedded REST server</h2>
      <p className="hint">Serves this instance’s REST API, so SDK clients and curl can reach it with a dms user or an API key while the app runs.</p>
      <ErrorAlert message={loaded.error} />
      {status && <RestServerStatusLine status={status} />}
      {status && admin && <RestServerForm key={JSON.stringify(status.settings)} settings={status.settings} onSaved={setSaved} />}
      {status && !admin && <p className="hint">Only an admin can turn the REST server on or off or change its address.</p>}
    </section>
  );
}
