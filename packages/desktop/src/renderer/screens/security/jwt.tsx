import { api } from '../../trpc-client.js';
import { useRefusableLoad } from '../../ui/use-refusable-load.js';
import { AdminOnly } from '../../ui/admin-only.js';
import { JwtForm } from './jwt-form.js';
import '../../ui/admin.css';
import { ErrorAlert } from '../../ui/error-alert.js';

/** Whether REST clients may trade a user's password for a short-lived token (JWT mode). */
export function JwtScreen() {
  const settings = useRefusableLoad(() => api.settings.show.query());
  if (settings.refusal) return <AdminOnly what="change JWT mode" refusal={settings.refusal} />;
  return (
    <>
      <div id="jwt-explained" className="jwt-explain">
        <p>
          With JWT mode on, a REST client can send a user name and password once to <code className="admin-code">POST /api/v2/auth/login</code> and get a signed
          token, which it then sends as <code className="admin-code">Authorization: Bearer &lt;token&gt;</code> until the token expires, instead of sending the
          password with every request.
        </p>
        <p>
          With it off, the login is refused and every token is rejected at once; turning it back on does not revive old tokens. Basic credentials and API keys
          work either way.
        </p>
      </div>
      <ErrorAlert message={settings.error} />
      {settings.data && <JwtForm settings={settings.data} />}
    </>
  );
}
