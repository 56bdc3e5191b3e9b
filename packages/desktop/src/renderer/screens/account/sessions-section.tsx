import { useState } from 'react';
import { api, describeError } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { shortTime } from '../../ui/format.js';
import '../../ui/admin.css';

/** "Sessions": where the user (an admin: everyone) is signed in, each with Revoke (docs/decisions/179-sessions.md). */
export function SessionsSection() {
  const sessions = useLoad(() => api.account.sessions.query({ sort_by: 'last_used_at:desc' }));
  const [error, setError] = useState<string | null>(null);
  const revoke = async (id: string) => {
    setError(null);
    try {
      await api.account.revokeSession.mutate({ id });
      sessions.reload();
    } catch (caught) {
      setError(describeError(caught).message);
    }
  };
  const current = sessions.data?.current ?? null;
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      <ErrorAlert message={sessions.error ?? error} />
      {sessions.data && (
        <table>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Client</th>
              <th scope="col">Address</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.sessions.map((session) => (
              <tr key={session.id}>
                <td>{session.user_id}</td>
                <td>
                  {session.user_agent ?? 'unknown'}
                  {session.id === current ? ' (this console)' : ''}
                </td>
                <td>{session.ip ?? ''}</td>
                <td>{shortTime(session.created_at)}</td>
                <td>{shortTime(session.last_used_at)}</td>
                <td>
                  <button
                    type="button"
                    onClick={() => void revoke(session.id)}
                    aria-label={`Revoke session ${session.user_agent ?? session.id} of user ${session.user_id}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
