import { api } from '../../trpc-client.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { shortTime } from '../../ui/format.js';
import { scheduleActionLabels } from './watch-labels.js';
import { describeRule } from './rule-text.js';
import { targetText, type Schedule, type ScheduleNames } from './schedule-names.js';

interface ScheduleTableProps {
  schedules: Schedule[];
  names: ScheduleNames | undefined;
  editingId: number | undefined;
  onEdit: (schedule: Schedule) => void;
  onDeleted: (schedule: Schedule) => void;
}

/** One page of schedules: what each runs on which shares, its rule in words and as text, when it runs next and how its runs went. */
export function ScheduleTable({ schedules, names, editingId, onEdit, onDeleted }: ScheduleTableProps) {
  return (
    <table aria-label="Schedules" className="schedule-table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Action</th>
          <th scope="col">Shares</th>
          <th scope="col">Rule</th>
          <th scope="col">Next run</th>
          <th scope="col">Last run</th>
          <th scope="col" className="number">
            Missed
          </th>
          <th scope="col" className="number">
            Skipped
          </th>
          <th scope="col">Enabled</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {schedules.map((schedule) => (
          <tr key={schedule.id} data-editing={editingId === schedule.id ? 'true' : undefined}>
            <td>{schedule.name}</td>
            <td>{scheduleActionLabels[schedule.action]}</td>
            <td>{targetText(schedule, names)}</td>
            <td className="rule">
              <span className="rule-words">{describeRule(schedule.rrule)}</span>
              <code className="rule-code">{schedule.rrule}</code>
            </td>
            <td>{schedule.next ? shortTime(schedule.next) : <span className="hint">{schedule.enabled ? 'ended' : 'off'}</span>}</td>
            <td>{schedule.last_run_at ? shortTime(schedule.last_run_at) : <span className="hint">not yet</span>}</td>
            <td className="number">{schedule.missed_count.toLocaleString('en')}</td>
            <td className="number">{schedule.skipped_count.toLocaleString('en')}</td>
            <td>{schedule.enabled ? 'yes' : 'no'}</td>
            <td>
              <div className="admin-row-actions">
                <button type="button" className="secondary" aria-label={`Edit schedule ${schedule.name}`} onClick={() => onEdit(schedule)}>
                  Edit
                </button>
                <ConfirmButton
                  label="Delete"
                  accessibleLabel={`Delete schedule ${schedule.name}`}
                  question={`Delete schedule ${schedule.name}? Its runs stop; the jobs it started stay in the history.`}
                  onConfirm={async () => {
                    await api.schedules.delete.mutate({ schedule: schedule.id });
                    onDeleted(schedule);
                  }}
                />
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
