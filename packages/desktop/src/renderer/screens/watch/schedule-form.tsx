import { useRef, useState, type FormEvent } from 'react';
import type { ScheduleAction } from '@dms/core';
import { api } from '../../trpc-client.js';
import { Field } from '../../ui/form-field.js';
import { SelectField } from '../../ui/select-field.js';
import { FormHeading } from '../../ui/form-heading.js';
import { FormActions } from '../../ui/form-actions.js';
import { ProblemAlert } from '../../ui/problem-alert.js';
import { formProblem, type FormProblem } from '../../ui/form-problem.js';
import { optionsOf } from '../../labels/storage-labels.js';
import { scheduleActionLabels } from '../../labels/watch-labels.js';
import { defaultRule, readRule } from './rule-text.js';
import { RuleFields, ruleOf, type RuleState } from './rule-fields.js';
import { TargetFields, targetBody, targetFields, type TargetState } from './target-fields.js';
import type { Schedule, ScheduleNames } from './schedule-names.js';

const formFields = ['name', 'action', 'rrule', 'enabled', ...targetFields];

function initialRule(schedule: Schedule | undefined): RuleState {
  if (!schedule) return { simple: defaultRule(), raw: undefined };
  const simple = readRule(schedule.rrule);
  // A rule the simple fields cannot build opens as its text, for editing by hand.
  return simple ? { simple, raw: undefined } : { simple: defaultRule(), raw: schedule.rrule };
}

function initialTarget(schedule: Schedule | undefined, names: ScheduleNames): TargetState {
  const first = { poolId: String(names.pools[0]?.id ?? ''), nasId: String(names.nas[0]?.id ?? ''), shareIds: [] };
  if (!schedule) return { kind: 'shares', ...first };
  if (schedule.all_shares) return { kind: 'all', ...first };
  if (schedule.pool_id !== null) return { kind: 'pool', ...first, poolId: String(schedule.pool_id) };
  if (schedule.nas_id !== null) return { kind: 'nas', ...first, nasId: String(schedule.nas_id) };
  return { kind: 'shares', ...first, shareIds: schedule.nas_share_ids ?? [] };
}

interface ScheduleFormProps {
  schedule?: Schedule;
  names: ScheduleNames;
  onSaved: (schedule: Schedule) => void;
  onCancel?: () => void;
}

/**
 * Creates a schedule, or edits one: its name, a test or a scan, which shares, when (built from
 * simple fields, the RFC 5545 text shown), and whether it is on. The core's messages show under
 * their fields: a rule the parser refuses, with its reason, at the rule's text.
 */
export function ScheduleForm({ schedule, names, onSaved, onCancel }: ScheduleFormProps) {
  const [rule, setRule] = useState<RuleState>(() => initialRule(schedule));
  const [target, setTarget] = useState<TargetState>(() => initialTarget(schedule, names));
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const busy = useRef(false);
  const form = schedule ? `schedule-${schedule.id}` : 'schedule-new';
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy.current) return;
    busy.current = true;
    const data = new FormData(event.currentTarget);
    const body = {
      name: String(data.get('name') ?? '').trim(),
      action: String(data.get('action')) as ScheduleAction,
      rrule: ruleOf(rule),
      enabled: data.get('enabled') !== null,
      ...targetBody(target),
    };
    try {
      const saved = schedule ? await api.schedules.update.mutate({ schedule: schedule.id, body }) : await api.schedules.create.mutate(body);
      setProblem(null);
      onSaved(saved);
    } catch (caught) {
      setProblem(formProblem(caught, formFields));
    } finally {
      busy.current = false;
    }
  };
  const headingId = `${form}-heading`;
  return (
    <form className="admin-form schedule-form" aria-labelledby={headingId} onSubmit={(event) => void submit(event)} noValidate>
      <FormHeading id={headingId} focusOnMount={schedule !== undefined}>
        {schedule ? `Edit schedule ${schedule.name}` : 'New schedule'}
      </FormHeading>
      <Field form={form} name="name" label="Name" errors={problem?.fields} defaultValue={schedule?.name} autoComplete="off" />
      <SelectField
        form={form}
        name="action"
        label="Action"
        errors={problem?.fields}
        options={optionsOf(scheduleActionLabels).map(([action, label]) => [action, `${label} each share`] as const)}
        defaultValue={schedule?.action ?? 'test'}
        hint="A test checks that a share can be reached (its health); a scan counts its files and bytes (its growth)."
      />
      <TargetFields value={target} onChange={setTarget} names={names} errors={problem?.fields} />
      <RuleFields form={form} value={rule} onChange={setRule} errors={problem?.fields} />
      <label className="inline">
        <input type="checkbox" name="enabled" defaultChecked={schedule?.enabled ?? true} />
        Enabled: run on this schedule
      </label>
      <ProblemAlert problem={problem} />
      <FormActions editing={schedule !== undefined} create="Add schedule" save="Save schedule" onCancel={onCancel} />
    </form>
  );
}
