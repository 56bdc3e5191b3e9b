import { useState } from 'react';
import { api } from '../../trpc-client.js';
import { EmptyState } from '../../ui/empty-state.js';
import { EditDeleteActions } from '../../ui/edit-delete-actions.js';
import { ListPages, useListPage } from '../../ui/list-pages.js';
import { useRefusableLoad } from '../../ui/use-refusable-load.js';
import { AdminOnly } from '../../ui/admin-only.js';
import { CorsRuleForm, type CorsRule } from './cors-rule-form.js';
import '../../ui/admin.css';
import { ErrorAlert } from '../../ui/error-alert.js';
import { ColumnHeads } from '../../ui/column-heads.js';

/** Which browser pages (origins) may call which paths of the REST API with which methods. */
export function CorsRulesScreen() {
  const list = useListPage('path');
  const rules = useRefusableLoad(() => api.corsRules.list.query(list.query), list.key);
  const [editing, setEditing] = useState<CorsRule | null>(null);
  const [newForm, setNewForm] = useState(0);
  if (rules.refusal) return <AdminOnly what="manage cross-origin rules" refusal={rules.refusal} />;
  const rows = rules.data?.cors_rules ?? [];
  return (
    <>
      <p className="hint">A browser page may call the REST API only when a rule allows its origin, the path and the method; other clients are not affected.</p>
      <ErrorAlert message={rules.error} />
      {rules.data?.count === 0 && (
        <EmptyState title="No cross-origin rules yet">
          Browser pages on other origins cannot call the REST API. Add a rule below for each web app that should.
        </EmptyState>
      )}
      {rows.length > 0 && (
        <table>
          <caption className="visually-hidden">Cross-origin rules</caption>
          <ColumnHeads columns={[{ label: 'Origins' }, { label: 'Path' }, { label: 'Methods' }, { label: 'Actions' }]} />
          <tbody>
            {rows.map((rule) => {
              const name = `cross-origin rule for ${rule.origins.join(', ')} on ${rule.path}`;
              return (
                <tr key={rule.id}>
                  <td>
                    <ul className="plain-list">
                      {rule.origins.map((origin) => (
                        <li key={origin}>{origin}</li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    <code className="admin-code">{rule.path}</code>
                  </td>
                  <td>{rule.methods.join(', ')}</td>
                  <td>
                    <EditDeleteActions
                      name={name}
                      onEdit={() => setEditing(rule)}
                      question={`Delete the ${name}? Browser pages on these origins lose access at once.`}
                      onDelete={async () => {
                        await api.corsRules.delete.mutate({ corsRule: rule.id });
                        if (editing?.id === rule.id) setEditing(null);
                        rules.reload();
                      }}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <ListPages label="Cross-origin rules" page={list.page} count={rules.data?.count ?? 0} onPage={list.setPage} />
      {editing ? (
        <CorsRuleForm key={`edit-${editing.id}`} rule={editing} onSaved={() => (setEditing(null), rules.reload())} onCancel={() => setEditing(null)} />
      ) : (
        rules.data && <CorsRuleForm key={`new-${newForm}`} onSaved={() => (setNewForm((n) => n + 1), rules.reload())} />
      )}
    </>
  );
}
