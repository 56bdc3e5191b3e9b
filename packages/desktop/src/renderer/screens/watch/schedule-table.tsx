import { api } from '../../trpc-client.js';
import { ColumnHeads, type Column } from '../../ui/column-heads.js';
import { EditDeleteActions } from '../../ui/edit-delete-actions.js';
import { shortTime } from '../../ui/format.js';
import { scheduleActionLabels } from '../../labels/watch-labels.js';
import { describeRule } from './rule-text.js';
import { targetText, type Schedule, type ScheduleNames } from './schedule-names.js';

const scheduleColumns: Column[] = [
  { label: 'Name' },
  { label: 'Action' },
  { label: 'Shares' },
  { label: 'Rule' },
  { label: 'Next run' },
  { label: 'Last run' },
  { label: 'Missed', number: true },
  { label: 'Skipped', number: true },
  { label: 'Enabled' },
  { label: 'Actions' },
];

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
      <ColumnHeads columns={scheduleColumns} />
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
              <EditDeleteActions
                name={`schedule ${schedule.name}`}
                onEdit={() => onEdit(schedule)}
                question={`Delete schedule ${schedule.name}? Its runs stop; the jobs it started stay in the history.`}
                onDelete={async () => {
                  await api.schedules.delete.mutate({ schedule: schedule.id });
                  onDeleted(schedule);
                }}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
