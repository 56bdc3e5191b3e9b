import { CopyButton } from '../../ui/copy-button.js';
import type { RestServerStatusView } from './rest-server-summary.js';

const urlId = 'rest-server-url';

/** The REST server's state on the Settings screen: its URL to copy while it runs, the reason when it failed. */
export function RestServerStatusLine({ status }: { status: RestServerStatusView }) {
  return (
    <div className="rest-status">
      <p role="status">
        {status.state === 'running' && (
          <>
            <span data-state="running">Running</span> at <code id={urlId}>{status.url}</code>
          </>
        )}
        {status.state === 'failed' && (
          <>
            <span data-state="failed">Failed</span>: {status.lastError}
          </>
        )}
        {status.state === 'stopped' && (
          <>
            <span data-state="stopped">Off</span>
            {status.lastError ? <span className="hint"> ({status.lastError})</span> : '. Turn it on below so SDK clients and curl can reach this instance.'}
          </>
        )}
      </p>
      {status.state === 'running' && status.url && <CopyButton text={status.url} targetId={urlId} label="REST server URL" />}
    </div>
  );
}
