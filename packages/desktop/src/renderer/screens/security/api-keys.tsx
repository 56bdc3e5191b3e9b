import { useState } from 'react';
import { api, type Outputs } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { shortTime } from '../../ui/format.js';
import { ListPages, useListPage } from '../../ui/list-pages.js';
import { ApiKeyForm, type CreatedApiKey } from './api-key-form.js';
import { CreatedKey } from './created-key.js';
import { presetOf, scopesText } from './scope-presets.js';
import '../../ui/admin.css';
import { ErrorAlert } from '../../ui/error-alert.js';
import { ColumnHeads } from '../../ui/column-heads.js';

type ApiKey = Outputs['apiKeys']['list']['api_keys'][number];

function expiryText(key: ApiKey, now: number): string {
  if (!key.expires_at) return 'never';
  return `${Date.parse(key.expires_at) <= now ? 'expired ' : ''}${shortTime(key.expires_at)}`;
}

/** API keys for REST clients: created with their scopes, shown once, listed masked, revoked. */
export function ApiKeysScreen() {
  const list = useListPage('name');
  const keys = useLoad(() => api.apiKeys.list.query(list.query), list.key);
  // Held here only: navigating away unmounts the screen, and the key is gone for good.
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const now = Date.now();
  const rows = keys.data?.api_keys ?? [];
  return (
    <>
      <p className="hint">
        REST clients send a key as <code className="admin-code">Authorization: Bearer &lt;key&gt;</code>; it may do what its scopes allow, and never more than
        the user who created it.
      </p>
      {created && <CreatedKey created={created} onDone={() => setCreated(null)} />}
      <ErrorAlert message={keys.error} />
      {keys.data?.count === 0 && (
        <EmptyState title="No API keys yet">Create one below for each script or client that calls the REST API, with only the scopes it needs.</EmptyState>
      )}
      {rows.length > 0 && (
        <table>
          <caption className="visually-hidden">API keys</caption>
          <ColumnHeads
            columns={[{ label: 'Name' }, { label: 'Key' }, { label: 'Scopes' }, { label: 'Expires' }, { label: 'Last used' }, { label: 'Actions' }]}
          />
          <tbody>
            {rows.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td>
                  <code className="admin-code">{key.masked_key}</code>
                </td>
                <td>
                  {key.role === null ? (
                    <>
                      {scopesText(key.api_key_scopes)}
                      {presetOf(key.api_key_scopes) && <span className="hint"> ({key.api_key_scopes.length} scopes)</span>}
                    </>
                  ) : (
                    <>
                      Role {key.role} <span className="hint">({key.api_key_scopes.length} scopes as the role has them now)</span>
                    </>
                  )}
                </td>
                <td>{expiryText(key, now)}</td>
                <td>{key.last_used_at ? shortTime(key.last_used_at) : 'never'}</td>
                <td>
                  <ConfirmButton
                    label="Revoke"
                    accessibleLabel={`Revoke API key ${key.name}`}
                    question={`Revoke API key ${key.name}? Clients using it, and any key it created, lose access at once.`}
                    onConfirm={async () => {
                      await api.apiKeys.delete.mutate({ apiKey: key.id });
                      keys.reload();
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ListPages label="API keys" page={list.page} count={keys.data?.count ?? 0} onPage={list.setPage} />
      <ApiKeyForm onCreated={(key) => (setCreated(key), keys.reload())} />
    </>
  );
}
