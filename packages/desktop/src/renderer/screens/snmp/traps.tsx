import { useState } from 'react';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ListPages, useListPage } from '../../ui/list-pages.js';
import { severityName } from '../../labels/snmp-choices.js';
import { TrapForm, type Trap } from './trap-form.js';
import { TrapRowActions } from './trap-row-actions.js';
import { createUserLine, EngineIdNote } from './trapd-user-line.js';
import { trapV3FieldLabels } from './trap-v3-fields.js';
import { labelled } from '../../ui/form-problem.js';
import '../../ui/admin.css';
import { ErrorAlert } from '../../ui/error-alert.js';
import { ColumnHeads } from '../../ui/column-heads.js';

function bandText(trap: Trap): string {
  if (trap.severity_low === trap.severity_high) return `only ${severityName(trap.severity_low)}`;
  return `${severityName(trap.severity_low)} to ${severityName(trap.severity_high)}`;
}

/** SNMP managers that receive the service's events as traps: each with its severity band, and a test. */
export function TrapsScreen() {
  const list = useListPage('manager');
  const traps = useLoad(() => api.traps.list.query(list.query), list.key);
  // The engine id is the agent configuration's: a user who may not read it sees no createUser lines.
  const agent = useLoad(() => api.snmpConfig.show.query());
  const v3Targets = (traps.data?.traps ?? []).filter((trap) => trap.version === 'v3' && trap.security_name);
  const [editing, setEditing] = useState<Trap | null>(null);
  // A new key after each creation: the form starts empty again.
  const [newForm, setNewForm] = useState(0);
  const rows = traps.data?.traps ?? [];
  return (
    <>
      <p className="hint">Each active target receives the service&apos;s events whose severity lies in its band, as SNMP traps.</p>
      <ErrorAlert message={traps.error} />
      {traps.data?.count === 0 && (
        <EmptyState title="No trap targets yet">Add an SNMP manager below to receive the service&apos;s events as traps, then send it a test trap.</EmptyState>
      )}
      {rows.length > 0 && (
        <table>
          <caption className="visually-hidden">Trap targets</caption>
          <ColumnHeads columns={[{ label: 'Manager' }, { label: 'Version' }, { label: 'State' }, { label: 'Severity band' }, { label: 'Actions' }]} />
          <tbody>
            {rows.map((trap) => (
              <tr key={trap.snmp_trap_id}>
                <td>{trap.manager}</td>
                <td>
                  {trap.version}
                  {trap.notify_type === 'inform' ? ', informs' : ''}
                  {trap.security_name ? ` as ${trap.security_name}` : ''}
                  {trap.messages?.map((message) => (
                    <span key={message} className="hint">
                      {' '}
                      {labelled(message, trapV3FieldLabels)}
                    </span>
                  ))}
                </td>
                <td>{trap.activation === 1 ? 'active' : 'inactive'}</td>
                <td>{bandText(trap)}</td>
                <td>
                  <TrapRowActions
                    trap={trap}
                    onEdit={() => setEditing(trap)}
                    onDeleted={() => {
                      if (editing?.snmp_trap_id === trap.snmp_trap_id) setEditing(null);
                      traps.reload();
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ListPages label="Trap targets" page={list.page} count={traps.data?.count ?? 0} onPage={list.setPage} />
      {v3Targets.length > 0 && (
        <EngineIdNote
          engineId={agent.data?.engine_id ?? null}
          idPrefix="trap-engine-id"
          lines={v3Targets.map((trap) => ({
            key: String(trap.snmp_trap_id),
            label: `the snmptrapd.conf line of ${trap.manager}`,
            caption: `${trap.manager}${trap.notify_type === 'inform' ? ' (informs)' : ''}:`,
            text: createUserLine(
              agent.data?.engine_id ?? null,
              { ...trap, security_name: trap.security_name ?? '', security_level: trap.security_level ?? 'noAuthNoPriv' },
              trap.notify_type === 'inform',
            ),
          }))}
        />
      )}
      {editing ? (
        <TrapForm key={`edit-${editing.snmp_trap_id}`} trap={editing} onSaved={() => (setEditing(null), traps.reload())} onCancel={() => setEditing(null)} />
      ) : (
        <TrapForm key={`new-${newForm}`} onSaved={() => (setNewForm((n) => n + 1), traps.reload())} />
      )}
    </>
  );
}
