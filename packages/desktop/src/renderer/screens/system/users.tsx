import { useState } from 'react';
import { api } from '../../trpc-client.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { shortTime } from '../../ui/format.js';
import type { ScreenProps } from '../screen-props.js';
import { ListPages, useListPage } from '../../ui/list-pages.js';
import { useRefusableLoad } from '../../ui/use-refusable-load.js';
import { AdminOnly } from '../../ui/admin-only.js';
import { UserForm, type User } from './user-form.js';
import '../../ui/admin.css';
import { ErrorAlert } from '../../ui/error-alert.js';

/** The people who sign in here and to the REST API (Basic or JWT); admin-only. */
export function UsersScreen({ user: me }: ScreenProps) {
  const list = useListPage('username');
  const users = useRefusableLoad(() => api.users.list.query(list.query), list.key);
  const [editing, setEditing] = useState<User | null>(null);
  const [newForm, setNewForm] = useState(0);
  if (users.refusal) return <AdminOnly what="manage users" refusal={users.refusal} />;
  const rows = users.data?.users ?? [];
  return (
    <>
      <p className="hint">
        Users sign in to this console and to the REST API with full access; admins also manage users, cross-origin rules, settings and every API key.
      </p>
      <ErrorAlert message={users.error} />
      {users.data?.count === 0 && <EmptyState title="No users">Add a user below; make at least one of them an admin.</EmptyState>}
      {rows.length > 0 && (
        <table>
          <caption className="visually-hidden">Users</caption>
          <thead>
            <tr>
              <th scope="col">User name</th>
              <th scope="col">Role</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((user) => (
              <tr key={user.id}>
                <td>
                  {user.username}
                  {user.username === me.username && <span className="hint"> (you)</span>}
                </td>
                <td>{user.admin ? 'admin' : 'user'}</td>
                <td>{shortTime(user.created_at)}</td>
                <td>
                  <div className="admin-row-actions">
                    <button type="button" className="secondary" aria-label={`Edit user ${user.username}`} onClick={() => setEditing(user)}>
                      Edit
                    </button>
                    <ConfirmButton
                      label="Delete"
                      accessibleLabel={`Delete user ${user.username}`}
                      question={`Delete user ${user.username}? They can no longer sign in, here or to the REST API.`}
                      onConfirm={async () => {
                        await api.users.delete.mutate({ user: user.id });
                        if (editing?.id === user.id) setEditing(null);
                        users.reload();
                      }}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ListPages label="Users" page={list.page} count={users.data?.count ?? 0} onPage={list.setPage} />
      {editing ? (
        <UserForm key={`edit-${editing.id}`} user={editing} onSaved={() => (setEditing(null), users.reload())} onCancel={() => setEditing(null)} />
      ) : (
        users.data && <UserForm key={`new-${newForm}`} onSaved={() => (setNewForm((n) => n + 1), users.reload())} />
      )}
    </>
  );
}
