import { useState, type FormEvent } from 'react';
import type { NotifyType, TrapVersion } from '@dms/core';
import { api, type Outputs } from '../../trpc-client.js';
import { Field, FieldFrame } from '../../ui/form-field.js';
import { VersionSelect } from './version-select.js';
import { formProblem, type FormProblem } from '../../ui/form-problem.js';
import { FormHeading } from '../../ui/form-heading.js';
import { ProblemAlert } from '../../ui/problem-alert.js';
import { SecretField } from '../../ui/secret-field.js';
import { FormActions } from '../../ui/form-actions.js';
import { SeverityBand } from './severity-band.js';
import { useFocusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { BandEvents } from './band-events.js';
import { notifyTypeChoices, trapVersionChoices } from '../../labels/snmp-choices.js';
import { TrapV3Fields, trapV3Body, trapV3FieldLabels } from './trap-v3-fields.js';

export type Trap = Outputs['traps']['list']['traps'][number];

const formFields = {
  manager: 'Manager',
  community: 'Community',
  version: 'Version',
  notify_type: 'Notify as',
  activation: 'Active',
  severity_low: 'Lowest severity',
  severity_high: 'Highest severity',
  ...trapV3FieldLabels,
};

/**
 * Creates a trap target, or edits one; the core's field errors are shown under their fields. Beside
 * the form, the events dms raises and which of them the band being chosen lets through.
 */
export function TrapForm({ trap, onSaved, onCancel }: { trap?: Trap; onSaved: (trap: Trap) => void; onCancel?: () => void }) {
  const [band, setBand] = useState({ low: trap?.severity_low ?? 1, high: trap?.severity_high ?? 5 });
  const [version, setVersion] = useState<string>(trap?.version ?? 'v2c');
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const formRef = useFocusFirstInvalid(problem);
  const form = trap ? `trap-${trap.snmp_trap_id}` : 'trap-new';
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const chosen = String(data.get('version')) as TrapVersion;
    const body = {
      manager: String(data.get('manager') ?? '').trim(),
      // v3 has no community: the stored one stays as it is
      ...(chosen === 'v3' ? {} : { community: String(data.get('community') ?? '') }),
      version: chosen,
      notify_type: (chosen === 'v1' ? 'trap' : String(data.get('notify_type') ?? 'trap')) as NotifyType,
      activation: data.get('activation') ? (1 as const) : (0 as const),
      severity_low: band.low,
      severity_high: band.high,
      ...(chosen === 'v3' ? trapV3Body(data, trap) : {}),
    };
    try {
      const saved = trap ? await api.traps.update.mutate({ trap: trap.snmp_trap_id, body }) : await api.traps.create.mutate(body);
      setProblem(null);
      onSaved(saved);
    } catch (caught) {
      setProblem(formProblem(caught, formFields));
    }
  };
  const headingId = `${form}-heading`;
  return (
    <div className="trap-form-layout">
      <form ref={formRef} className="admin-form" aria-labelledby={headingId} onSubmit={(event) => void submit(event)} noValidate>
        <FormHeading id={headingId} focusOnMount={trap !== undefined}>
          {trap ? `Edit trap target ${trap.manager}` : 'New trap target'}
        </FormHeading>
        <Field
          form={form}
          name="manager"
          label="Manager"
          errors={problem?.fields}
          defaultValue={trap?.manager}
          hint="Host name, IPv4 or [IPv6] address, with :port if not 162."
          autoComplete="off"
        />
        <VersionSelect defaultValue={version} choices={trapVersionChoices} onChange={setVersion} />
        {version !== 'v3' && <SecretField form={form} name="community" label="Community" errors={problem?.fields} defaultValue={trap?.community ?? 'public'} />}
        {version !== 'v1' && (
          <FieldFrame
            form={form}
            name="notify_type"
            label="Notify as"
            errors={problem?.fields}
            hint="An inform is acknowledged by the manager and retried; unacknowledged, it raises the alert trap_target_unreachable."
          >
            {(control) => (
              <select {...control} defaultValue={trap?.notify_type ?? 'trap'}>
                {notifyTypeChoices.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </select>
            )}
          </FieldFrame>
        )}
        {version === 'v3' && <TrapV3Fields form={form} values={trap} errors={problem?.fields} />}
        <label className="inline">
          <input type="checkbox" name="activation" defaultChecked={trap ? trap.activation === 1 : true} />
          Active: send events to this target
        </label>
        <SeverityBand low={band.low} high={band.high} onChange={setBand} errors={problem?.fields} />
        <ProblemAlert problem={problem} />
        <FormActions editing={trap !== undefined} create="Add trap target" save="Save trap target" onCancel={onCancel} />
      </form>
      <BandEvents low={band.low} high={band.high} id={`${form}-events`} />
    </div>
  );
}
