import { useState } from 'react';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { ListPages, useListPage } from '../../ui/list-pages.js';
import { shortTime } from '../../ui/format.js';
import { ScheduleForm } from './schedule-form.js';
import { ScheduleTable } from './schedule-table.js';
import { useScheduleNames, type Schedule } from './schedule-names.js';
import '../../ui/admin.css';
import './watch.css';

/**
 * Share tests and scans that run by themselves, on an RFC 5545 rule: each run starts ordinary
 * jobs (requester "scheduler"), skipped while the previous run's jobs still go; time missed
 * while dms was down is counted and run once.
 */
export function SchedulesScreen() {
  const list = useListPage('name');
  const schedules = useLoad(
    () => api.schedules.list.query({ sort_by: list.query.sort_by, page: String(list.page), per_page: String(list.query.per_page) }),
    list.key,
  );
  const { names, error: namesError } = useScheduleNames();
  const [editing, setEditing] = useState<Schedule | null>(null);
  const [newForm, setNewForm] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const rows = schedules.data?.schedules ?? [];
  const saved = (schedule: Schedule, verb: string) => {
    const next = schedule.next ? `Next run: ${shortTime(schedule.next)}.` : schedule.enabled ? 'Its rule has no run ahead.' : 'It is off until enabled.';
    setNotice(`Schedule ${schedule.name} ${verb}. ${next}`);
    schedules.reload();
  };
  return (
    <>
      <p className="hint">
        Each run tests or scans its shares as ordinary jobs (requested by “scheduler”, on the Jobs screen). A run is skipped while the previous run’s jobs are
        still going; runs missed while dms was not running are counted, and run once.
      </p>
      <ErrorAlert message={schedules.error ?? namesError} />
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {schedules.data?.count === 0 && (
        <EmptyState title="No schedules yet">
          Add one below: test your shares every few minutes to hear when one stops answering, or scan them nightly to see them grow.
        </EmptyState>
      )}
      {rows.length > 0 && (
        <ScheduleTable
          schedules={rows}
          names={names}
          editingId={editing?.id}
          onEdit={(schedule) => (setNotice(null), setEditing(schedule))}
          onDeleted={(schedule) => {
            if (editing?.id === schedule.id) setEditing(null);
            setNotice(`Schedule ${schedule.name} deleted.`);
            schedules.reload();
          }}
        />
      )}
      <ListPages label="Schedules" page={list.page} count={schedules.data?.count ?? 0} onPage={list.setPage} />
      {names &&
        (editing ? (
          <ScheduleForm
            key={`edit-${editing.id}`}
            schedule={editing}
            names={names}
            onSaved={(schedule) => (setEditing(null), saved(schedule, 'saved'))}
            onCancel={() => setEditing(null)}
          />
        ) : (
          <ScheduleForm key={`new-${newForm}`} names={names} onSaved={(schedule) => (setNewForm((n) => n + 1), saved(schedule, 'added'))} />
        ))}
    </>
  );
}
