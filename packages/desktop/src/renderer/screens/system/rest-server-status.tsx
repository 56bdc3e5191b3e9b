import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { restServerSummary } from './rest-server-summary.js';

/** The embedded REST server's line in the overview's facts (a <dt>/<dd> pair inside its <dl>). */
export function RestServerStatus() {
  const status = useLoad(() => api.restServer.status.query());
  return (
    <>
      <dt>REST server</dt>
      <dd>
        {status.error && <span className="hint">not available here ({status.error})</span>}
        {!status.error && !status.data && '…'}
        {status.data && (
          <>
            <span data-state={status.data.state}>{restServerSummary(status.data)}</span>
            {status.data.state !== 'running' && (
              <>
                {' '}
                (<a href="#/settings">{status.data.state === 'failed' ? 'check it in Settings' : 'turn it on in Settings'}</a>)
              </>
            )}
          </>
        )}
      </dd>
    </>
  );
}
