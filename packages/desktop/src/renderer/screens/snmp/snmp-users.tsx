import { useState, type FormEvent } from 'react';
import type { SecurityLevel } from '@dms/core';
import { api, type Outputs } from '../../trpc-client.js';
import { formProblem, labelled, type FormProblem } from '../../ui/form-problem.js';
import { ProblemAlert } from '../../ui/problem-alert.js';
import { TrapV3Fields, trapV3FieldLabels } from './trap-v3-fields.js';

type Config = Outputs['snmpConfig']['show'];
type User = Config['users'][number];

const form = 'snmp-user';

/** A stored user as the update takes it back: without passphrases, which the core then keeps. */
function kept(user: User) {
  return { security_name: user.security_name, security_level: user.security_level, auth_protocol: user.auth_protocol, priv_protocol: user.priv_protocol };
}

/** "legacy: Authentication protocol SHA-1 is allowed but weak": a note on a user, by its name and the form's labels. */
function userMessage(message: string, users: readonly User[]): string {
  const index = /^users\[(\d+)\]\./.exec(message)?.[1];
  const user = index === undefined ? undefined : users[Number(index)];
  return `${user ? `${user.security_name}: ` : ''}${labelled(message, trapV3FieldLabels)}`;
}

/**
 * The agent's SNMPv3 users (read-only access): listed with their level and protocols, removed one
 * by one, and added or replaced by name. A passphrase left empty keeps the stored one of that name.
 */
export function SnmpUsers({ config, onSaved }: { config: Config; onSaved: () => void }) {
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [note, setNote] = useState('');
  // a new key remounts the form empty after a save
  const [round, setRound] = useState(0);

  const save = async (users: ReturnType<typeof kept>[], done: string) => {
    try {
      await api.snmpConfig.update.mutate({ users });
      setProblem(null);
      setNote(done);
      setRound((n) => n + 1);
      onSaved();
    } catch (caught) {
      setProblem(formProblem(caught, trapV3FieldLabels));
      setNote('');
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    const name = text('security_name');
    const optional = (field: string) => (text(field) === '' ? {} : { [field]: text(field) });
    const user = {
      security_name: name,
      security_level: text('security_level') as SecurityLevel,
      ...optional('auth_protocol'),
      ...optional('auth_passphrase'),
      ...optional('priv_protocol'),
      ...optional('priv_passphrase'),
    };
    const others = config.users.filter((stored) => stored.security_name !== name).map(kept);
    await save([...others, user as ReturnType<typeof kept>], `Saved user ${name}.`);
  };

  return (
    <section aria-labelledby="snmp-users-heading">
      <h2 id="snmp-users-heading">SNMPv3 users</h2>
      {config.users.length === 0 ? (
        <p className="hint">No SNMPv3 user: the agent answers the community above only.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Security name</th>
              <th scope="col">Level</th>
              <th scope="col">Authentication</th>
              <th scope="col">Privacy</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {config.users.map((user) => (
              <tr key={user.security_name}>
                <td>{user.security_name}</td>
                <td>{user.security_level}</td>
                <td>{user.auth_protocol ?? '-'}</td>
                <td>{user.priv_protocol ?? '-'}</td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Remove SNMPv3 user ${user.security_name}`}
                    onClick={() => void save(config.users.filter((other) => other !== user).map(kept), `Removed user ${user.security_name}.`)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(config.messages ?? []).map((message) => (
        <p key={message} className="hint">
          {userMessage(message, config.users)}
        </p>
      ))}
      <form key={round} className="admin-form" aria-label="Add or replace an SNMPv3 user" onSubmit={(event) => void submit(event)} noValidate>
        <TrapV3Fields form={form} values={undefined} errors={problem?.fields} />
        <ProblemAlert problem={problem} />
        <div className="actions">
          <button type="submit">Save user</button>
          <span role="status" className="ok">
            {note}
          </span>
        </div>
      </form>
    </section>
  );
}
