import { useState, type FormEvent } from 'react';
import { api, type Outputs } from '../../trpc-client.js';
import { Field } from '../../ui/form-field.js';
import { formProblem, type FormProblem } from '../../ui/form-problem.js';
import { FormHeading } from '../../ui/form-heading.js';
import { ProblemAlert } from '../../ui/problem-alert.js';
import { FormActions } from '../../ui/form-actions.js';
import { SelectField } from '../../ui/select-field.js';
import { useLoad } from '../../ui/use-load.js';
import { loadRoles, roleOptions } from './role-choices.js';

export type User = Outputs['users']['list']['users'][number];

const formFields = ['username', 'password', 'role', 'admin'];

/**
 * Creates a user (name, password, role), or edits one: a new password (left empty, the old
 * one stays) and the role (docs/api.md#roles). A user is never renamed.
 */
export function UserForm({ user, onSaved, onCancel }: { user?: User; onSaved: () => void; onCancel?: () => void }) {
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const roles = useLoad(loadRoles);
  const form = user ? `user-${user.id}` : 'user-new';
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get('password') ?? '');
    const role = String(data.get('role') ?? 'operator');
    try {
      if (user) await api.users.update.mutate({ user: user.id, body: { role, ...(password ? { password } : {}) } });
      else await api.users.create.mutate({ username: String(data.get('username') ?? '').trim(), password, role });
      setProblem(null);
      onSaved();
    } catch (caught) {
      setProblem(formProblem(caught, formFields));
    }
  };
  const headingId = `${form}-heading`;
  return (
    <form className="admin-form" aria-labelledby={headingId} onSubmit={(event) => void submit(event)} noValidate>
      <FormHeading id={headingId} focusOnMount={user !== undefined}>
        {user ? `Edit user ${user.username}` : 'New user'}
      </FormHeading>
      {!user && <Field form={form} name="username" label="User name" errors={problem?.fields} autoComplete="off" />}
      <Field
        form={form}
        name="password"
        label={user ? 'New password' : 'Password'}
        type="password"
        autoComplete="new-password"
        errors={problem?.fields}
        hint={user ? 'Leave empty to keep the current password.' : undefined}
      />
      {roles.data ? (
        <SelectField
          form={form}
          name="role"
          label="Role"
          options={roleOptions(roles.data.roles)}
          defaultValue={user?.role ?? 'operator'}
          errors={problem?.fields}
          hint="What the user may do, here and through the REST API; a change applies at the user's next request."
        />
      ) : (
        <p className="hint">{roles.error ?? 'Loading the roles…'}</p>
      )}
      <ProblemAlert problem={problem} />
      <FormActions editing={user !== undefined} create="Add user" save="Save user" onCancel={onCancel} />
    </form>
  );
}
