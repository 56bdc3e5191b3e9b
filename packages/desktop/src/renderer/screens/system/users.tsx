import { useState } from 'react';
import { api } from '../../trpc-client.js';
import { EmptyState } from '../../ui/empty-state.js';
import { EditDeleteActions } from '../../ui/edit-delete-actions.js';
import { shortTime } from '../../ui/format.js';
import type { ScreenProps } from '../screen-props.js';
import { ListPages, useListPage } from '../../ui/list-pages.js';
import { useRefusableLoad } from '../../ui/use-refusable-load.js';
import { AdminOnly } from '../../ui/admin-only.js';
import { UserForm, type User } from './user-form.js';
import '../../ui/admin.css';
import { ErrorAlert } from '../../ui/error-alert.js';
import { ColumnHeads } from '../../ui/column-heads.js';

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
        Users sign in to this console and to the REST API with the scopes of their role; only admins manage users, roles, cross-origin rules, settings and every
        API key.
      </p>
      <ErrorAlert message={users.error} />
      {users.data?.count === 0 && <EmptyState title="No users">Add a user below; make at least one of them an admin.</EmptyState>}
      {rows.length > 0 && (
        <table>
          <caption className="visually-hidden">Users</caption>
          <ColumnHeads columns={[{ label: 'User name' }, { label: 'Role' }, { label: 'Created' }, { label: 'Actions' }]} />
          <tbody>
            {rows.map((user) => (
              <tr key={user.id}>
                <td>
                  {user.username}
                  {user.username === me.username && <span className="hint"> (you)</span>}
                </td>
                <td>{user.role}</td>
                <td>{shortTime(user.created_at)}</td>
                <td>
                  <EditDeleteActions
                    name={`user ${user.username}`}
                    onEdit={() => setEditing(user)}
                    question={`Delete user ${user.username}? They can no longer sign in, here or to the REST API.`}
                    onDelete={async () => {
                      await api.users.delete.mutate({ user: user.id });
                      if (editing?.id === user.id) setEditing(null);
                      users.reload();
                    }}
                  />
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
